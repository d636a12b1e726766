#!/usr/bin/env python3
"""Fetch the JavaScript the book needs, from the npm registry, pinned and hash-checked.

    python3 tools/fetch_js.py [--dest _vendor]

The book's 3D views are ipywidgets (pythreejs).  In a static page they are
drawn by the widget manager ``@jupyter-widgets/html-manager`` (loaded with
require.js), which loads ``jupyter-threejs`` for the pythreejs models; formulas are
typeset by MathJax.  By default myst-nb and sphinx take these from CDNs; the book must work offline, so this
script downloads each package once with ``npm pack`` (into ``.cache/npm``),
checks it against the integrity hash pinned below, and copies the files the
pages load into ``dest`` (copied into the built site by ``html_extra_path``).
Standard library and ``npm`` only.  Exits 1 with a one-line reason on failure.
"""
from __future__ import annotations

import argparse
import base64
import hashlib
import pathlib
import shutil
import subprocess
import sys
import tarfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
CACHE = ROOT / ".cache" / "npm"
CONFIG_JS = ROOT / "tools" / "widgets" / "require-config.js"

#: name@version -> (npm integrity, {file or folder/ in the package: where it goes in dest,
#: one place or a tuple of places})
PACKAGES = {
    "@jupyter-widgets/html-manager@1.0.15": (
        "sha512-5thBIV6ymNgmPVOHvzx+gGy8ZSKmSazhtGw4/c4xJDVzRhG9PTeQsRjF3FUTopvFi//SABeNz1yp47bCrJ3CQA==",
        {"package/dist/embed-amd.js": "widgets/embed-amd.js",
         "package/dist/embed.js.LICENSE.txt": "widgets/LICENSE.html-manager.txt",
         # The manager asks for its fonts relative to the address require.js gave
         # one of its modules: "widgets/" or "widgets/html-manager/dist/" depending
         # on which loads first (see require-config.js). Both get them.
         "package/dist/": ("widgets/", "widgets/html-manager/dist/")}),
    "jupyter-threejs@2.4.1": (
        "sha512-AFoYllRmV5Hy1Hbyq8NR09KXiFE+9qQ4zPlKW5RAzkRjdvO56rWM4hzSKNSnW/GH/8FcqMVE2SnGHOP/ZmFwSw==",
        {"package/dist/index.js": "widgets/jupyter-threejs.js",
         "package/LICENSE": "widgets/LICENSE.jupyter-threejs.txt"}),
    "requirejs@2.3.8": (
        "sha512-7/cTSLOdYkNBNJcDMWf+luFvMriVm7eYxp4BcFCsAX0wF421Vyce5SXP17c+Jd5otXKGNehIonFlyQXSowL6Mw==",
        {"package/require.js": "widgets/require.js"}),
    # Formulas in the book (sphinx mathjax_path) and on the live pages.
    "mathjax@3.2.2": (
        "sha512-Bt+SSVU8eBG27zChVewOicYs7Xsdt40qm4+UpHyX7k0/O9NliPc+x77k1/FEsPsjKPZGJvtRZM1vO+geW0OhGw==",
        {"package/es5/tex-mml-chtml.js": "mathjax/tex-mml-chtml.js",
         "package/LICENSE": "mathjax/LICENSE.txt",
         "package/es5/output/chtml/fonts/woff-v2/": "mathjax/output/chtml/fonts/woff-v2/"}),
    # The in-page board: three.js draws it (three.module.js imports three.core.js).
    "three@0.187.0": (
        "sha512-Qiu7R+Cmh8CstZsY1uJOSWnVlfo7ZtNLV7mF8Jltk3LB3AtDu9cRZlcnRKkAk8Y4z6KKw35z7Y7Urd7jWY8etA==",
        {"package/build/three.module.js": "board/three.module.js",
         "package/build/three.core.js": "board/three.core.js",
         "package/examples/jsm/controls/OrbitControls.js": "board/OrbitControls.js",
         "package/LICENSE": "board/LICENSE.three.txt"}),
    # ... and the engine runs beside it in WebAssembly CPython (standard library only).
    "pyodide@314.0.7": (
        "sha512-0YvXxEhfEdpLfb/XkM2BFAeMROq0iMUX2bzzH9pOttyMcWkwq+HbE5uyuGD82LN7y2q+SNvi/6V5JEsOlD2R1A==",
        {"package/pyodide.mjs": "pyodide/pyodide.mjs",
         "package/pyodide.asm.mjs": "pyodide/pyodide.asm.mjs",
         "package/pyodide.asm.wasm": "pyodide/pyodide.asm.wasm",
         "package/python_stdlib.zip": "pyodide/python_stdlib.zip",
         "package/pyodide-lock.json": "pyodide/pyodide-lock.json"}),
}
#: Imports rewritten on the way: the page has no import map, so the bare
#: specifier 'three' becomes the file beside it.
REWRITES = {"board/OrbitControls.js": ((b"from 'three'", b"from './three.module.js'"),)}
#: Files taken from a folder entry: fonts only.
FOLDER_SUFFIXES = (".eot", ".svg", ".ttf", ".woff", ".woff2")


class FetchError(Exception):
    pass


def tarball_name(spec: str) -> str:
    """npm pack's file name: '@scope/name@1.0' -> 'scope-name-1.0.tgz'."""
    name, version = spec.rsplit("@", 1)
    return f"{name.lstrip('@').replace('/', '-')}-{version}.tgz"


def integrity(path: pathlib.Path) -> str:
    return "sha512-" + base64.b64encode(hashlib.sha512(path.read_bytes()).digest()).decode()


def fetch(spec: str, expected: str) -> pathlib.Path:
    """The package tarball, from the cache or npm, checked against its pinned hash."""
    CACHE.mkdir(parents=True, exist_ok=True)
    tgz = CACHE / tarball_name(spec)
    if not tgz.exists() or integrity(tgz) != expected:
        if shutil.which("npm") is None:
            raise FetchError("npm is needed to fetch the widget JavaScript "
                             "(install Node.js and npm, e.g. apt-get install npm)")
        done = subprocess.run(["npm", "pack", spec, "--pack-destination", str(CACHE),
                               "--silent"], capture_output=True, text=True)
        if done.returncode != 0 or not tgz.exists():
            raise FetchError(f"npm pack {spec} failed: "
                             f"{(done.stderr or done.stdout).strip().splitlines()[-1:]}")
    found = integrity(tgz)
    if found != expected:
        raise FetchError(f"{spec}: integrity {found} does not match the pinned {expected}")
    return tgz


def extract(tgz: pathlib.Path, files: dict, dest: pathlib.Path) -> int:
    """Copy the listed files (and the fonts of listed folders) from a tarball."""
    count = 0
    with tarfile.open(tgz) as tar:
        for member in tar.getmembers():
            if not member.isfile():
                continue
            folder, _, name = member.name.rpartition("/")
            if member.name in files:
                targets = files[member.name]
            elif folder + "/" in files and name.endswith(FOLDER_SUFFIXES):
                places = files[folder + "/"]
                targets = tuple(place + name for place in _as_tuple(places))
            else:
                continue
            data = tar.extractfile(member).read()
            for target in _as_tuple(targets):
                for old, new in REWRITES.get(target, ()):
                    if old not in data:
                        raise FetchError(f"{tgz.name}: {target} no longer holds {old!r}")
                    data = data.replace(old, new)
            for target in _as_tuple(targets):
                (dest / target).parent.mkdir(parents=True, exist_ok=True)
                (dest / target).write_bytes(data)
                count += 1
    missing = [f for f, t in files.items() if not all((dest / p).exists() for p in _as_tuple(t))]
    if missing:
        raise FetchError(f"{tgz.name} lacks {', '.join(missing)}")
    return count


def _as_tuple(places) -> tuple:
    return places if isinstance(places, tuple) else (places,)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dest", default=str(ROOT / "_vendor"))
    args = parser.parse_args(argv)
    dest = pathlib.Path(args.dest)
    if dest.exists():
        shutil.rmtree(dest)
    dest.mkdir(parents=True)
    try:
        total = 0
        for spec, (expected, files) in PACKAGES.items():
            total += extract(fetch(spec, expected), files, dest)
    except FetchError as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    shutil.copy(CONFIG_JS, dest / "widgets" / CONFIG_JS.name)
    print(f"fetched JavaScript: {total + 1} files in {dest}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
