"""Two models from one start mixed weight by weight: ``(1 - share) * first + share * second``.

Runs continued from the same weights stay close enough that their average is a model too, often keeping the
first's strengths and the second's gains (stop 27, ``models/README.md``). Works on corner classifiers
(``train_classifier.save_checkpoint`` files) and on ultralytics detector checkpoints (their ``ema`` weights when
saved mid-run, else ``model``). Integer buffers (BatchNorm's step count) are taken from ``second``.

    python -m vision.training.average_weights FIRST.pt SECOND.pt 0.5 OUT.pt

Runs 30 and 34 (stops 28-29) were such averages, half and half, and shipped; the model card's table of runs names
every average since, and which of them shipped.
"""

from __future__ import annotations

import sys
from pathlib import Path

import torch

from vision.training.classifier_net import CornerClassifier
from vision.training.train_classifier import classifier_from_checkpoint, crop_scale_of, save_checkpoint

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
    return _mixed_classifier(_read(first), _read(second), share, (str(first), str(second)))


def _mixed_classifier(first: object, second: object, share: float, names: tuple[str, str]) -> CornerClassifier:
    nets = []
    for state, name in zip((first, second), names, strict=True):
        if not (isinstance(state, dict) and "state_dict" in state):
            raise ValueError(f"{name} is not a corner classifier checkpoint.")
        nets.append(classifier_from_checkpoint(state))
    scales = [crop_scale_of(state) for state in (first, second)]
    if scales[0] != scales[1]:
        raise ValueError(
            f"{names[0]} and {names[1]} were trained on crops at other scales ({scales[0]} and {scales[1]}); "
            "their average would read neither."
        )
    nets[0].load_state_dict(mix_states(nets[0].state_dict(), nets[1].state_dict(), share, names))
    return nets[0]


def average_detectors(first: str | Path, second: str | Path, share: float) -> dict:
    """``first``'s ultralytics checkpoint with its weights mixed with ``second``'s, ready to save and export."""
    return _mixed_detector(_detector_checkpoint(first), _detector_checkpoint(second), share, (str(first), str(second)))


def _mixed_detector(first: object, second: object, share: float, names: tuple[str, str]) -> dict:
    ca, cb = _detector_checkpoint_of(first, names[0]), _detector_checkpoint_of(second, names[1])
    a, b = _detector_net(ca, names[0]).float(), _detector_net(cb, names[1]).float()
    a.load_state_dict(mix_states(a.state_dict(), b.state_dict(), share, names))
    return {**ca, "model": a.half(), "ema": None, "updates": None, "epoch": -1, "optimizer": None, "scaler": None}


def _read(path: str | Path) -> object:
    """What torch saved in ``path``; a missing or unreadable file is a ``ValueError`` naming it."""
    if not Path(path).is_file():
        raise ValueError(f"There is no model file at {path}.")
    try:
        return torch.load(path, map_location="cpu", weights_only=False)
    except Exception as err:  # torch.load fails in many ways on a damaged file: each is the same sentence here
        raise ValueError(f"{path} is not a model file that torch can read ({type(err).__name__}).") from err


def _detector_checkpoint(path: str | Path) -> dict:
    from vision.training.train_detector import quiet_offline_ultralytics

    quiet_offline_ultralytics()  # before torch unpickles ultralytics' classes
    return _detector_checkpoint_of(_read(path), str(path))


def _detector_checkpoint_of(ckpt: object, name: str) -> dict:
    if not isinstance(ckpt, dict) or not ({"model", "ema"} & ckpt.keys()):
        raise ValueError(f"{name} is not an ultralytics detector checkpoint.")
    return ckpt


def _detector_net(ckpt: dict, path: str | Path) -> torch.nn.Module:
    net = ckpt["ema"] if ckpt.get("ema") is not None else ckpt.get("model")
    if net is None:
        raise ValueError(f"{path} holds no detector weights.")
    return net


def main(argv: list[str]) -> int:
    """Write the average of two classifiers or two detectors; a bad argument gets one sentence, exit 2."""
    try:
        first, second, share_text, out = argv
        share = float(share_text)
    except ValueError:
        print(USAGE, file=sys.stderr)
        return 2
    from vision.training.train_detector import quiet_offline_ultralytics

    quiet_offline_ultralytics()  # a detector checkpoint unpickles ultralytics' classes
    try:
        state = _read(first)  # each file is read once
        if isinstance(state, dict) and "state_dict" in state:
            net = _mixed_classifier(state, _read(second), share, (first, second))
            save_checkpoint(net, Path(out), crop_scale=crop_scale_of(state))
        else:
            ckpt = _mixed_detector(state, _read(second), share, (first, second))
            Path(out).parent.mkdir(parents=True, exist_ok=True)
            torch.save(ckpt, out)
    except (ValueError, OSError, RuntimeError) as err:
        print(err, file=sys.stderr)
        return 2
    print(f"written: {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
