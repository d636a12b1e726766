#!/usr/bin/env python3
"""Check that the pins of requirements.txt, pyproject.toml's extras and requirements.lock agree.

    python3 tools/check_pins.py

requirements.txt holds the direct pins of the development environment; the extras
`test` and `book` of pyproject.toml must list the same `name==version` pins, and
requirements.lock (from `make lock`) must fix each of them at the same version.
Standard library only (Python 3.11+). Exits 1 and says what differs otherwise.
"""
from __future__ import annotations

import pathlib
import re
import sys
import tomllib

ROOT = pathlib.Path(__file__).resolve().parent.parent
PIN = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)\s*==\s*([^\s;#]+)")


def normalize(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def pins(lines) -> dict[str, str]:
    out = {}
    for line in lines:
        line = line.split("#", 1)[0].strip()
        if not line or line.startswith("-"):
            continue
        match = PIN.match(line)
        if not match:
            raise SystemExit(f"error: not an exact pin (name==version): {line!r}")
        out[normalize(match[1])] = match[2]
    return out


def main() -> int:
    txt = pins((ROOT / "requirements.txt").read_text().splitlines())
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    extras = pins(req for group in project.get("optional-dependencies", {}).values()
                  for req in group)
    problems = []
    for name in sorted(txt.keys() | extras.keys()):
        a, b = txt.get(name), extras.get(name)
        if a != b:
            problems.append(f"{name}: requirements.txt {a or '(absent)'}, "
                            f"pyproject.toml extras {b or '(absent)'}")
    lock_path = ROOT / "requirements.lock"
    if lock_path.exists():
        lock = pins(lock_path.read_text().splitlines())
        for name, version in sorted(txt.items()):
            if lock.get(name) != version:
                problems.append(f"{name}: requirements.txt {version}, requirements.lock "
                                f"{lock.get(name) or '(absent)'} (run `make lock`)")
    for problem in problems:
        print(f"pin mismatch: {problem}", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
