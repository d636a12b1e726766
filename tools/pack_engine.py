#!/usr/bin/env python3
"""Pack the engine for the book's in-page boards: ``<dest>/board/shibumi.zip``.

    python3 tools/pack_engine.py [--dest _build/engine]

The boards run the package ``shibumi`` unchanged in the reader's browser
(Pyodide).  Only the standard-library part goes in: the subpackages that
need numpy, pythreejs, networkx or the notebook stack stay out (``views``,
``book`` and four modules of ``maths``); the solvers stay in.  The zip is byte-for-byte the same for the same sources (fixed
dates, sorted names), so browsers and the build cache keep it.
Standard library only.
"""
from __future__ import annotations

import argparse
import pathlib
import sys
import zipfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "shibumi"
#: What imports third-party libraries: not needed by the boards.
LEFT_OUT = ("views", "book", "maths/counting.py", "maths/graphs.py", "maths/verify.py",
            "maths/claims.py")
DATE = (2026, 1, 1, 0, 0, 0)


def engine_files() -> list[pathlib.Path]:
    return sorted(p for p in PACKAGE.rglob("*.py")
                  if not any(p.relative_to(PACKAGE).as_posix().startswith(out)
                             for out in LEFT_OUT))


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dest", default=str(ROOT / "_build" / "engine"))
    args = parser.parse_args(argv)
    target = pathlib.Path(args.dest) / "board" / "shibumi.zip"
    target.parent.mkdir(parents=True, exist_ok=True)
    files = engine_files()
    partial = target.with_suffix(".zip.part")
    with zipfile.ZipFile(partial, "w", zipfile.ZIP_DEFLATED) as archive:
        for path in files:
            info = zipfile.ZipInfo(str(path.relative_to(ROOT)), DATE)
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, path.read_bytes())
    partial.replace(target)
    print(f"packed the engine: {len(files)} files, {target.stat().st_size:,} bytes in {target}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
