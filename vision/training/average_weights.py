"""Two models from one start mixed weight by weight: ``(1 - share) * first + share * second``.

Runs continued from the same weights stay close enough that their average is a model too, often keeping the
first's strengths and the second's gains (stop 27, ``models/README.md``). Works on corner classifiers
(``train_classifier.save_checkpoint`` files) and on ultralytics detector checkpoints (their ``ema`` weights when
saved mid-run, else ``model``). Integer buffers (BatchNorm's step count) are taken from ``second``.

    python -m vision.training.average_weights FIRST.pt SECOND.pt 0.5 OUT.pt

The shipped classifier (run 30, stop 28) is runs 20 and 25 so averaged, half and half.
"""

from __future__ import annotations

import sys
from pathlib import Path

import torch

from vision.training.classifier_net import CornerClassifier
from vision.training.train_classifier import ClassifierRun, load_classifier, save_checkpoint

USAGE = "usage: python -m vision.training.average_weights FIRST.pt SECOND.pt SHARE OUT.pt  (SHARE: 0 to 1)"


def mix_states(first: dict, second: dict, share: float, names: tuple[str, str] = ("first", "second")) -> dict:
    """``(1 - share) * first + share * second`` for every float tensor; other tensors from ``second``."""
    if not 0.0 <= share <= 1.0:
        raise ValueError(f"The share of the second model must lie between 0 and 1 (got {share}).")
    if {k: v.shape for k, v in first.items()} != {k: v.shape for k, v in second.items()}:
        raise ValueError(f"{names[0]} and {names[1]} are not the same shape of model, so they cannot be averaged.")
    return {
        k: (v.float() * (1 - share) + second[k].float() * share).to(v.dtype) if v.is_floating_point() else second[k]
        for k, v in first.items()
    }


def average_classifiers(first: str | Path, second: str | Path, share: float) -> CornerClassifier:
    """The classifier whose every float tensor is ``(1 - share) * first + share * second``; same widths needed."""
    a, b = load_classifier(_existing(first)), load_classifier(_existing(second))
    a.load_state_dict(mix_states(a.state_dict(), b.state_dict(), share, (str(first), str(second))))
    return a


def average_detectors(first: str | Path, second: str | Path, share: float) -> dict:
    """``first``'s ultralytics checkpoint with its weights mixed with ``second``'s, ready to save and export."""
    ca, cb = _detector_checkpoint(first), _detector_checkpoint(second)
    a, b = _detector_net(ca, first).float(), _detector_net(cb, second).float()
    a.load_state_dict(mix_states(a.state_dict(), b.state_dict(), share, (str(first), str(second))))
    return {**ca, "model": a.half(), "ema": None, "updates": None, "epoch": -1, "optimizer": None, "scaler": None}


def _existing(path: str | Path) -> Path:
    if not Path(path).is_file():
        raise ValueError(f"There is no model file at {path}.")
    return Path(path)


def _detector_checkpoint(path: str | Path) -> dict:
    from vision.training.train_detector import quiet_offline_ultralytics

    quiet_offline_ultralytics()
    ckpt = torch.load(_existing(path), map_location="cpu", weights_only=False)
    if not isinstance(ckpt, dict) or not ({"model", "ema"} & ckpt.keys()):
        raise ValueError(f"{path} is not an ultralytics detector checkpoint.")
    return ckpt


def _detector_net(ckpt: dict, path: str | Path) -> torch.nn.Module:
    net = ckpt["ema"] if ckpt.get("ema") is not None else ckpt.get("model")
    if net is None:
        raise ValueError(f"{path} holds no detector weights.")
    return net


def _is_classifier(path: Path) -> bool:
    state = torch.load(path, map_location="cpu", weights_only=False)
    return isinstance(state, dict) and "state_dict" in state


def main(argv: list[str]) -> int:
    """Write the average of two classifiers or two detectors; a bad argument gets one sentence, exit 2."""
    try:
        first, second, share_text, out = argv
        share = float(share_text)
    except ValueError:
        print(USAGE, file=sys.stderr)
        return 2
    try:
        if _is_classifier(_existing(first)):
            net = average_classifiers(first, second, share)
            save_checkpoint(net, Path(out), ClassifierRun(samples=0, epochs=0.0, seconds=0.0, device="cpu"))
        else:
            ckpt = average_detectors(first, second, share)
            Path(out).parent.mkdir(parents=True, exist_ok=True)
            torch.save(ckpt, out)
    except (ValueError, OSError, RuntimeError) as err:
        print(err, file=sys.stderr)
        return 2
    print(f"written: {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
