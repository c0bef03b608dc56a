#!/usr/bin/env python3
"""Renders the web app's PNG icons from static/icon.svg with Debian's headless Chromium.

    python3 scripts/web/make_icons.py

The PNGs are committed beside the SVG (the build needs no browser); run this again after
changing the SVG. The maskable icons fill the whole square (the launcher crops them to its own
shape, RFC-free but per the W3C manifest's "maskable" purpose), the others keep the rounded corners.
"""
import os
import pathlib
import subprocess
import tempfile

ROOT = pathlib.Path(__file__).resolve().parents[2]
STATIC = ROOT / "Sources/JadwalWeb/Assets/static"
ICONS = [  # (file, size, maskable)
    ("icon-192.png", 192, False),
    ("icon-512.png", 512, False),
    ("icon-maskable-512.png", 512, True),
    ("apple-touch-icon.png", 180, True),
]


def render(svg: str, size: int, out: pathlib.Path) -> None:
    with tempfile.TemporaryDirectory() as work:
        page = pathlib.Path(work) / "icon.html"
        page.write_text(
            "<!doctype html><html><head><style>html,body{margin:0;background:transparent}"
            f"svg{{display:block;width:{size}px;height:{size}px}}</style></head><body>{svg}</body></html>",
            encoding="utf-8")
        subprocess.run(
            ["chromium", "--headless=new", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
             "--default-background-color=00000000", f"--window-size={size},{size}", f"--screenshot={out}", page.as_uri()],
            check=True, capture_output=True, timeout=120, cwd=work)


def main() -> None:
    source = (STATIC / "icon.svg").read_text(encoding="utf-8")
    for name, size, maskable in ICONS:
        svg = source.replace('rx="96" fill="#0b6e4f"', 'fill="#0b6e4f"') if maskable else source
        render(svg, size, STATIC / name)
        print(name, size, os.path.getsize(STATIC / name), "bytes")


if __name__ == "__main__":
    main()
