"""Two classifiers from one start mixed weight by weight: ``(1 - share) * first + share * second``.

Runs continued from the same weights stay close enough that their average is a classifier too, often keeping
the first's strengths and the second's gains (stop 27, ``models/README.md``). Integer buffers (BatchNorm's step
count) are taken from ``second``.

    python -m vision.training.average_weights models/corner_classifier.pt runs/c25/models/corner_classifier.pt \\
        0.5 models/candidates/corner_classifier_avg20_25.pt
"""

from __future__ import annotations

import sys
from pathlib import Path

from vision.training.classifier_net import CornerClassifier
from vision.training.train_classifier import ClassifierRun, load_classifier, save_checkpoint


def average_classifiers(first: str | Path, second: str | Path, share: float) -> CornerClassifier:
    """The classifier whose every float tensor is ``(1 - share) * first + share * second``; same widths needed."""
    if not 0.0 <= share <= 1.0:
        raise ValueError(f"The share of the second classifier must lie between 0 and 1 (got {share}).")
    a, b = load_classifier(first), load_classifier(second)
    sa, sb = a.state_dict(), b.state_dict()
    if {k: v.shape for k, v in sa.items()} != {k: v.shape for k, v in sb.items()}:
        raise ValueError(f"{first} and {second} are not the same shape of classifier, so they cannot be averaged.")
    mixed = {
        k: (sa[k].float() * (1 - share) + sb[k].float() * share).to(sa[k].dtype) if sa[k].is_floating_point() else sb[k]
        for k in sa
    }
    a.load_state_dict(mixed)
    return a


def main(argv: list[str]) -> int:
    first, second, share, out = argv
    net = average_classifiers(first, second, float(share))
    save_checkpoint(net, Path(out), ClassifierRun(samples=0, epochs=0.0, seconds=0.0, device="cpu"))
    print(f"written: {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
