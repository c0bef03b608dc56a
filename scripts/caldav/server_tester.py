#!/usr/bin/env python3
"""Run caldav-server-tester against Jadwal, Radicale and Xandikos and compare the results.

Each server is started on loopback with a fresh data directory (servers.py), the checker runs
against its bare URL (`caldav-server-tester --caldav-url URL ... --format hints`, which lists
every observed feature, not only deviations), and the results are printed as one table:
feature x server, with the checker class that probes it.

  pass         support "full"
  quirk        works, but a client needs special handling
  fragile      behaviour varies between runs or servers; not judged
  unsupported  the server does not do it (silently ignored or refused)
  FAIL         "broken" (does the wrong thing) or "ungraceful" (errors out)
  unknown      the checker could not tell (e.g. well-known on localhost)
  yes / no     an observation, not a feature (e.g. does the account come with a calendar)
  ERROR        the checker itself crashed on this server

  server_tester.py --jadwal-binary .build/debug/jadwal                  print the table
  server_tester.py --jadwal-binary ... --write --require-parity         also write
                                   docs/caldav-compliance-results.md and fail on a parity gap
  server_tester.py --servers radicale,xandikos                         peers only

--require-parity exits 1 when a feature that Radicale or Xandikos passes ("pass", or "quirk"
where no peer has "pass") is not at least as good on Jadwal. `--allow FEATURE` exempts one
feature (repeatable); every exemption is printed and written to the results file.

Jadwal runs with a second account (servers.EXTRA_USERS), given to the checker as an extra
`--config-section`, so its multi-user scheduling checks (inbox delivery, automatic scheduling,
busy time between accounts, Schedule-Tag kept across an answer) run instead of reporting
"unknown". --require-scheduling exits 1 unless every scheduling.* feature passes on Jadwal.
"""

from __future__ import annotations

import argparse
import ast
import datetime as dt
import importlib.metadata
import inspect
import json
import os
import subprocess
import tempfile
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import servers  # noqa: E402

REPO = Path(__file__).resolve().parents[2]
RESULTS = REPO / "docs" / "caldav-compliance-results.md"
PEERS = ("radicale", "xandikos")

WORD = {"full": "pass", "quirk": "quirk", "fragile": "fragile", "unsupported": "unsupported",
        "broken": "FAIL", "ungraceful": "FAIL", "unknown": "unknown"}
RANK = {"pass": 3, "quirk": 2}  # everything else ranks 0


def tester_binary() -> str:
    return servers._tool("caldav-server-tester")


def version(pkg: str) -> str:
    try:
        return importlib.metadata.version(pkg)
    except importlib.metadata.PackageNotFoundError:
        return "?"


def check_classes() -> dict[str, str]:
    """feature -> the checker class that probes it (from the installed package)."""
    try:
        from caldav_server_tester import checks
        from caldav_server_tester.checks_base import Check
    except ImportError:
        return {}
    out: dict[str, str] = {}
    for name, cls in inspect.getmembers(checks, inspect.isclass):
        if cls.__module__ != checks.__name__ or not issubclass(cls, Check) or cls is Check:
            continue
        for feature in getattr(cls, "features_to_be_checked", ()) or ():
            if isinstance(feature, str):
                out.setdefault(feature, name)
    return out


def check_for(feature: str, classes: dict[str, str]) -> str:
    parts = feature.split(".")
    while parts:
        name = classes.get(".".join(parts))
        if name:
            return name.removeprefix("Check")
        parts.pop()
    return ""


def run_tester(server: servers.Server, timeout: float) -> tuple[dict | None, str]:
    """Runs the checker; returns (features, error message or '')."""
    cmd = [tester_binary(), "--caldav-url", server.base_url, "--caldav-username", server.username,
           "--caldav-password", server.password, "--format", "hints"]
    env = dict(os.environ)
    config = None
    if server.extra_users:
        # The other accounts, as sections of a caldav config file the checker reads.
        sections = {f"account{i + 2}": {"caldav_url": server.base_url, "caldav_username": name, "caldav_password": password}
                    for i, (name, password) in enumerate(server.extra_users)}
        config = tempfile.NamedTemporaryFile("w", suffix=".json", prefix="caldav-accounts-", delete=False)
        json.dump(sections, config)
        config.close()
        env["CALDAV_CONFIG_FILE"] = config.name
        for name in sections:
            cmd += ["--config-section", name]
    try:
        result = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, env=env)
    except subprocess.TimeoutExpired:
        return None, f"caldav-server-tester did not finish within {timeout:.0f} s"
    finally:
        if config is not None:
            os.unlink(config.name)
    text = result.stdout
    start, end = text.find("{"), text.rfind("}")
    features = None
    if start >= 0 and end > start:
        try:
            features = ast.literal_eval(text[start:end + 1])
        except (ValueError, SyntaxError):
            features = None
    if result.returncode != 0 or not isinstance(features, dict):
        lines = [l for l in (result.stderr or "").splitlines() if l.strip()]
        reason = next((l for l in reversed(lines) if "Error" in l or "error" in l), lines[-1] if lines else "")
        return (features if isinstance(features, dict) else None,
                f"caldav-server-tester exited {result.returncode}: {reason.strip()[:400]}")
    return features, ""


def cell(info: dict | None) -> str:
    if info is None:
        return "-"
    if "support" in info:
        return WORD.get(info["support"], info["support"])
    if "value" in info:
        return "yes" if info["value"] else "no"
    if "enable" in info:
        return "yes" if info["enable"] else "no"
    return "?"


def detail(info: dict | None) -> str:
    if not info:
        return ""
    extras = {k: v for k, v in info.items() if k not in ("support", "value")}
    return "; ".join(f"{k}: {v}" for k, v in extras.items())


def parity_gaps(results: dict[str, dict], allowed: set[str]) -> tuple[list[str], list[str]]:
    """Features a peer passes that Jadwal does not (gaps), and the allowed ones among them."""
    jadwal = results.get("jadwal") or {}
    gaps, exempt = [], []
    features = sorted({f for kind in PEERS for f in (results.get(kind) or {})})
    for feature in features:
        best_peer = max((RANK.get(cell((results.get(kind) or {}).get(feature)), 0) for kind in PEERS), default=0)
        if best_peer == 0:
            continue
        mine = RANK.get(cell(jadwal.get(feature)), 0)
        if mine < best_peer:
            peers = ", ".join(f"{k}={cell((results.get(k) or {}).get(feature))}" for k in PEERS)
            line = f"{feature}: jadwal={cell(jadwal.get(feature))} ({peers})"
            (exempt if feature in allowed else gaps).append(line)
    return gaps, exempt


def table(results: dict[str, dict], kinds: list[str], markdown: bool) -> str:
    classes = check_classes()
    features = sorted({f for kind in kinds for f in (results.get(kind) or {})})
    header = ["feature", "check"] + kinds
    rows = [[f, check_for(f, classes)] + [cell((results.get(k) or {}).get(f)) if results.get(k) is not None
                                          else "ERROR" for k in kinds] for f in features]
    if markdown:
        out = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
        out += ["| " + " | ".join(f"`{r[0]}`" if i == 0 else r[i] for i in range(len(r))) + " |" for r in rows]
        return "\n".join(out)
    widths = [max(len(str(x)) for x in col) for col in zip(header, *rows)] if rows else [len(h) for h in header]
    fmt = "  ".join(f"{{:<{w}}}" for w in widths)
    out = [fmt.format(*header), fmt.format(*("-" * w for w in widths))]
    out += [fmt.format(*r) for r in rows]
    return "\n".join(out)


def summary_counts(results: dict[str, dict], kinds: list[str]) -> str:
    parts = []
    for kind in kinds:
        res = results.get(kind)
        if res is None:
            parts.append(f"{kind}: ERROR")
            continue
        words = [cell(v) for v in res.values()]
        parts.append(f"{kind}: {words.count('pass')} pass, {words.count('quirk')} quirk, "
                     f"{words.count('unsupported')} unsupported, {words.count('FAIL')} FAIL, "
                     f"{words.count('unknown') + words.count('fragile')} unknown/fragile")
    return "; ".join(parts)


def write_markdown(results, errors, kinds, gaps, exempt, versions, command, path: Path = RESULTS) -> None:
    lines = [
        "# CalDAV compliance: caldav-server-tester results",
        "",
        f"Generated by `{command}` on {dt.date.today().isoformat()}.",
        "Every server runs on loopback with a fresh data directory (`scripts/caldav/servers.py`).",
        "",
        "Versions: " + ", ".join(f"{k} {v}" for k, v in versions.items()) + ".",
        "",
        "Legend: pass = full support; quirk = works with client-side special handling; FAIL = broken or "
        "ungraceful (errors out); unsupported = not done; unknown/fragile = not judged; yes/no = an "
        "observation, not a feature; ERROR = the checker crashed on that server.",
        "",
        "Summary: " + summary_counts(results, kinds) + ".",
        "",
    ]
    if "jadwal" in kinds:
        if gaps:
            lines += ["**Parity gaps** (a peer passes, Jadwal does not):", ""] + [f"- `{g}`" for g in gaps] + [""]
        else:
            lines += ["Parity: every feature that Radicale or Xandikos passes also passes on Jadwal.", ""]
        if exempt:
            lines += ["Exempted from parity (`--allow`):", ""] + [f"- `{g}`" for g in exempt] + [""]
    for kind, message in errors.items():
        lines += [f"**{kind}**: {message}", ""]
    lines += [table(results, kinds, markdown=True), "", "## Details of results other than pass", ""]
    for kind in kinds:
        res = results.get(kind) or {}
        notes = [(f, cell(i), detail(i)) for f, i in sorted(res.items()) if cell(i) != "pass" and detail(i)]
        if notes:
            lines += [f"### {kind}", ""] + [f"- `{f}` ({w}): {d}" for f, w, d in notes] + [""]
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(lines).rstrip() + "\n")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--jadwal-binary", help="path to the jadwal binary")
    parser.add_argument("--servers", default="jadwal,radicale,xandikos",
                        help="comma-separated: jadwal, radicale, xandikos (default all three)")
    parser.add_argument("--write", action="store_true", help=f"write the table to {RESULTS.relative_to(REPO)}")
    parser.add_argument("--output", type=Path, default=RESULTS, help="with --write: write here instead")
    parser.add_argument("--require-parity", action="store_true",
                        help="exit 1 if Jadwal fails a feature that Radicale or Xandikos passes")
    parser.add_argument("--allow", action="append", default=[], metavar="FEATURE",
                        help="exempt one feature from --require-parity (repeatable)")
    parser.add_argument("--require-scheduling", action="store_true",
                        help="exit 1 unless every scheduling.* feature passes on Jadwal (run with a second account)")
    parser.add_argument("--timeout", type=float, default=900, help="seconds per server for the checker")
    args = parser.parse_args(argv)

    kinds = [k.strip() for k in args.servers.split(",") if k.strip()]
    for kind in kinds:
        if kind not in servers.KINDS:
            parser.error(f"unknown server {kind!r}")
    if "jadwal" in kinds and not args.jadwal_binary:
        parser.error("--jadwal-binary PATH is needed for jadwal (or leave it out of --servers)")
    if args.require_parity and ("jadwal" not in kinds or not any(k in kinds for k in PEERS)):
        parser.error("--require-parity needs jadwal and at least one peer in --servers")

    results: dict[str, dict | None] = {}
    errors: dict[str, str] = {}
    for kind in kinds:
        print(f"== {kind}: starting", file=sys.stderr, flush=True)
        try:
            with servers.start_server(kind, jadwal_binary=args.jadwal_binary, extra_users=1 if kind == "jadwal" else 0) as server:
                print(f"== {kind}: caldav-server-tester against {server.base_url}", file=sys.stderr, flush=True)
                features, error = run_tester(server, args.timeout)
                if error:
                    tail = server.log_tail(10)
                    errors[kind] = error + (f" (server log tail: {tail[-600:]})" if tail and features is None else "")
                    print(f"!! {kind}: {error}", file=sys.stderr)
                results[kind] = features
        except servers.ServerError as error:
            errors[kind] = f"could not start: {error}"
            results[kind] = None
            print(f"!! {kind}: could not start: {error}", file=sys.stderr)

    print(table(results, kinds, markdown=False))
    print()
    print(summary_counts(results, kinds))
    gaps, exempt = parity_gaps(results, set(args.allow)) if "jadwal" in kinds else ([], [])
    if "jadwal" in kinds and any(k in kinds for k in PEERS):
        if results.get("jadwal") is None:
            gaps = [f"jadwal: {errors.get('jadwal', 'no results')}"] + gaps
        if gaps:
            print(f"\nParity gaps ({len(gaps)}): features a peer passes that Jadwal does not:")
            for gap in gaps:
                print("  " + gap)
        else:
            print("\nParity: every feature Radicale or Xandikos passes also passes on Jadwal.")
        for line in exempt:
            print("  allowed: " + line)
    for kind, message in errors.items():
        print(f"{kind}: {message}")

    if args.write:
        versions = {"caldav-server-tester": version("caldav-server-tester"), "caldav": version("caldav"),
                    "Radicale": version("radicale"), "Xandikos": version("xandikos")}
        if "jadwal" in kinds and args.jadwal_binary:
            try:
                versions["Jadwal"] = subprocess.run([args.jadwal_binary, "--version"], capture_output=True,
                                                    text=True, timeout=30).stdout.strip() or "?"
            except OSError:
                versions["Jadwal"] = "?"
        command = "scripts/caldav/server_tester.py" + (" --jadwal-binary BINARY" if "jadwal" in kinds else "") \
            + (f" --servers {args.servers}" if args.servers != "jadwal,radicale,xandikos" else "") + " --write" \
            + "".join(f" --allow {a}" for a in args.allow)
        write_markdown(results, errors, kinds, gaps, exempt, versions, command, args.output)
        print(f"\nwrote {args.output}")

    failed = [k for k in kinds if results.get(k) is None]
    scheduling = {f: cell(i) for f, i in (results.get("jadwal") or {}).items() if f.startswith("scheduling")}
    if "jadwal" in kinds:
        print("\nScheduling on Jadwal: " + ", ".join(f"{f}={w}" for f, w in sorted(scheduling.items())))
    if args.require_scheduling and (not scheduling or any(w != "pass" for w in scheduling.values())):
        print("Scheduling checks not all passing on Jadwal.", file=sys.stderr)
        return 1
    if args.require_parity and gaps:
        return 1
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
