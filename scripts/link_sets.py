"""One training set made of links to others' files: python scripts/link_sets.py OUT SOURCE...

Each file of each SOURCE (a ``cribcam synth`` folder: cards/, images/, labels/, train and val) is linked into
OUT as ``s<tag>_<name>``, the tag being what follows "synth" in the source's folder name (synth6 -> s6_), so
names cannot collide; OUT's data.yaml is the first source's, pointed at OUT. A link already there is kept.
An OUT that holds drawn scenes (files, not links) is refused: ``fresh 66 67`` draws ``data/synth67``, the name
synth6 + synth7's links once had, and linking into it would mix two sets.
"""

from __future__ import annotations

import sys
from pathlib import Path


def link_sets(out: Path, sources: list[Path]) -> tuple[int, int]:
    """Link every file of ``sources`` into ``out``; (train, val) image counts of ``out``."""
    for part in ("cards", "images", "labels"):
        for split in ("train", "val"):
            folder = out / part / split
            folder.mkdir(parents=True, exist_ok=True)
            for source in sources:
                tag = source.name.removeprefix("synth")
                for file in sorted((source / part / split).iterdir()):
                    link = folder / f"s{tag}_{file.name}"
                    if not link.is_symlink():
                        link.symlink_to(Path("../../..") / source.name / part / split / file.name)
    yaml = (sources[0] / "data.yaml").read_text().replace(f"/{sources[0].name}", f"/{out.name}")
    (out / "data.yaml").write_text(yaml)
    return tuple(sum(1 for _ in (out / "images" / split).iterdir()) for split in ("train", "val"))


def main(argv: list[str]) -> int:
    if len(argv) < 2:
        print("usage: python scripts/link_sets.py OUT SOURCE...  (sources and OUT side by side in one folder)")
        return 2
    out, sources = Path(argv[0]), [Path(a) for a in argv[1:]]
    missing = [str(s) for s in sources if not (s / "images" / "train").is_dir() or s.parent != out.parent]
    if missing:
        print(f"Not a 'cribcam synth' folder beside {out}: {', '.join(missing)}.", file=sys.stderr)
        return 2
    drawn = out / "images" / "train"
    if drawn.is_dir() and any(not file.is_symlink() for file in drawn.iterdir()):
        print(f"{out} holds drawn scenes, not links to them; link into a folder of another name.", file=sys.stderr)
        return 2
    train, val = link_sets(out, sources)
    print(f"{out}: {train} train and {val} val images")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
