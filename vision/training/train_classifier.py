"""Training the corner classifier on patches from ``vision.training.classifier_data``.

Augmentation runs on whole batches (on the GPU when there is one): any rotation, the few-pixel
shift a detector makes, other fonts' proportions, slant and ink weight, colour casts, blur and noise.
Checkpoints hold the state dict plus the training history, so a later run continues from ``models/``.
"""

from __future__ import annotations

import copy
import math
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import torch
import torch.nn.functional as F

from vision.crops import CROP_SCALE, CROP_SIZE
from vision.training.classifier_data import PATCH
from vision.training.classifier_net import NUM_CLASSES, CornerClassifier, ProbabilityHead


@dataclass
class ClassifierRun:
    """What one training run did; recorded in the checkpoint and the model card."""

    samples: int
    epochs: float
    seconds: float
    device: str
    history: list[dict] = field(default_factory=list)
    kept: dict = field(default_factory=dict)
    """The ``history`` entry whose weights were saved (the best by the first validation set so far)."""


def augment(
    batch: torch.Tensor, generator: torch.Generator | None = None, lowres: float = 0.0, washout: float = 0.0
) -> torch.Tensor:
    """Random rotation, scale, stretch, shear and shift of (B,3,PATCH,PATCH) float patches, cut to CROP_SIZE, then
    bolder or lighter ink, ``lowres`` of them at a lower resolution (``coarsen``), ``washout`` of them with their
    colours faded (``wash_out``), and photometrics."""
    return _augmented_views(batch, generator, lowres, washout, unwashed_too=False)[0]


def augment_unwashed_too(
    batch: torch.Tensor, generator: torch.Generator | None = None, lowres: float = 0.0, washout: float = 0.0
) -> tuple[torch.Tensor, torch.Tensor]:
    """``augment``'s crops (the same draws, so on the CPU the very same crops), and beside them each crop as it was
    before its washout, with every other change the same: what a continued run's start reads when anchored unwashed."""
    washed, unwashed = _augmented_views(batch, generator, lowres, washout, unwashed_too=True)
    return washed, unwashed  # a pair, as the annotation says, not the list the views come in


def _augmented_views(
    batch: torch.Tensor, generator: torch.Generator | None, lowres: float, washout: float, unwashed_too: bool
) -> list[torch.Tensor]:
    """The augmented crops, and with ``unwashed_too`` the same crops unwashed after them (``augment``'s steps)."""
    b = batch.shape[0]
    dev = batch.device

    def rand(*shape: int) -> torch.Tensor:
        return torch.rand(*shape, generator=generator, device="cpu").to(dev)

    angle = rand(b) * 2 * math.pi
    scale = 1 + (rand(b) - 0.5) * 0.2
    out_frac = CROP_SIZE / PATCH
    cos, sin = torch.cos(angle) * out_frac / scale, torch.sin(angle) * out_frac / scale
    shift = (rand(b, 2) - 0.5) * 2 * (1 - out_frac) * 0.9
    rotate = torch.stack([torch.stack([cos, -sin], 1), torch.stack([sin, cos], 1)], 1)
    linear = rotate @ reshape(b, rand)
    theta = torch.cat([linear, shift[:, :, None]], 2)
    grid = F.affine_grid(theta, (b, 3, CROP_SIZE, CROP_SIZE), align_corners=False)
    x = F.grid_sample(batch, grid, mode="bilinear", padding_mode="border", align_corners=False)
    x = restroke(x, rand)
    if lowres > 0:
        x = coarsen(x, rand, lowres)
    x = recolour(x, rand)
    views = [wash_out(x, rand, washout) if washout > 0 else x] + ([x] if unwashed_too else [])
    if len(views) == 1:  # the usual step: no stacking to copy
        return [photometrics(views[0], rand, generator)]
    return list(photometrics(torch.cat(views), rand, generator, len(views)).chunk(len(views)))


def photometrics(x: torch.Tensor, rand, generator: torch.Generator | None, views: int = 1) -> torch.Tensor:
    """Gain, brightness, contrast, grey, blur and noise, drawn once per crop and applied alike to each of the
    ``views`` stacked copies of the crops in ``x`` (so a second view changes no draw of the first)."""
    b, dev = x.shape[0] // views, x.device

    def alike(t: torch.Tensor) -> torch.Tensor:
        return t if views == 1 else t.repeat(views, *([1] * (t.dim() - 1)))

    gain = alike(1 + (rand(b, 3, 1, 1) - 0.5) * 0.5)
    bright = alike((rand(b, 1, 1, 1) - 0.5) * 0.5)
    contrast = alike(0.5 + rand(b, 1, 1, 1))
    mean = x.mean(dim=(1, 2, 3), keepdim=True)
    x = ((x - mean) * contrast + mean) * gain + bright
    gray = alike(rand(b, 1, 1, 1) < 0.1)
    x = torch.where(gray, x.mean(dim=1, keepdim=True).expand_as(x), x)
    blur = alike(rand(b) < 0.3)
    if blur.any():
        kernel = torch.tensor([1.0, 2.0, 1.0], device=dev)
        kernel = (kernel[:, None] * kernel[None, :] / 16).expand(3, 1, 3, 3)
        x[blur] = F.conv2d(F.pad(x[blur], (1, 1, 1, 1), mode="replicate"), kernel, groups=3)
    noise = torch.randn((b, *x.shape[1:]), generator=generator, device="cpu").to(dev)
    x = x + alike(noise) * alike(rand(b, 1, 1, 1)) * 0.06
    return x.clamp(0, 1)


COARSER = (1.5, 2.0, 2.5, 3.0)
"""How many times smaller a coarsened crop is drawn before it is enlarged back."""


def coarsen(x: torch.Tensor, rand, share: float) -> torch.Tensor:
    """``share`` of the crops shrunk by one of ``COARSER`` (area average) and enlarged back (bilinear): a corner
    index a few dozen pixels tall, as in a whole-table photo or a webcam frame, has that few pixels to read."""
    b, size = x.shape[0], x.shape[-1]
    on = rand(b) < share
    pick = (rand(b) * len(COARSER)).long().clamp(max=len(COARSER) - 1)
    x = x.clone()
    for k, factor in enumerate(COARSER):
        rows = torch.nonzero(on & (pick == k)).flatten()
        if len(rows):
            small = F.interpolate(x[rows], size=max(2, round(size / factor)), mode="area")
            x[rows] = F.interpolate(small, size=size, mode="bilinear", align_corners=False)
    return x


RESHAPE_P = 0.5  # share of patches drawn narrower or wider and slanted, as other decks' fonts are
MAX_STRETCH = 0.15  # log of the most a reshaped patch is stretched one way and squeezed the other
MAX_SHEAR = 0.15
STROKE_P = 0.25  # share of patches whose ink is drawn bolder or lighter


def reshape(b: int, rand) -> torch.Tensor:
    """(b,2,2) area-keeping stretches and shears, identity for all but ``RESHAPE_P`` of them: an index in
    another deck's font is narrower or wider and may lean, so the classifier learns digits by more than one
    face's proportions."""
    on = (rand(b) < RESHAPE_P).float()
    stretch = torch.exp((rand(b) - 0.5) * 2 * MAX_STRETCH * on)
    shear = (rand(b) - 0.5) * 2 * MAX_SHEAR * on
    return torch.stack([torch.stack([stretch, shear], 1), torch.stack([torch.zeros_like(shear), 1 / stretch], 1)], 1)


def restroke(x: torch.Tensor, rand) -> torch.Tensor:
    """Bolder or lighter ink on ``STROKE_P`` of the patches: a 3x3 minimum (dark strokes grow) or maximum
    (they thin), blended in by a random amount, since decks print their indices in many weights."""
    b = x.shape[0]
    bolder = -F.max_pool2d(-x, 3, stride=1, padding=1)
    lighter = F.max_pool2d(x, 3, stride=1, padding=1)
    pick = rand(b, 1, 1, 1) < 0.5
    amount = rand(b, 1, 1, 1) * (rand(b, 1, 1, 1) < STROKE_P).float()
    return x + (torch.where(pick, bolder, lighter) - x) * amount


SWAP_P = 0.12  # share of patches whose colour channels are swapped (red pips turn blue or green)
INK_P = 0.12  # share of patches whose black ink is tinted a colour
_PERMUTATIONS = torch.tensor([[0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]])


def recolour(x: torch.Tensor, rand) -> torch.Tensor:
    """Four-colour decks, in training: some patches' channels swapped, some black inks tinted, so a suit is
    read by its shape as well as its colour (blue diamonds, green clubs). ``rand(*shape)`` gives uniforms."""
    b = x.shape[0]
    swap = rand(b) < SWAP_P
    perm = _PERMUTATIONS.to(x.device)[(rand(b) * len(_PERMUTATIONS)).long().clamp(max=len(_PERMUTATIONS) - 1)]
    swapped = torch.gather(x, 1, perm[:, :, None, None].expand_as(x))
    x = torch.where(swap[:, None, None, None], swapped, x)
    ink = rand(b) < INK_P
    darkness = (1 - x.max(dim=1, keepdim=True).values).clamp(0, 1)
    tint = rand(b, 3, 1, 1) * 0.6
    tinted = x * (1 - darkness) + darkness * tint
    return torch.where(ink[:, None, None, None], tinted, x)


MAX_KEPT_COLOUR = 0.6
"""A washed-out crop keeps at most this share of its colour (a backlit webcam keeps 25-70% of the saturation)."""


def wash_out(x: torch.Tensor, rand, share: float) -> torch.Tensor:
    """``share`` of the crops with their colours faded toward grey, keeping 0 to ``MAX_KEPT_COLOUR`` of them: in a
    washed-out frame a blue diamond's ink is a dark grey, and the suit must be read by its shape."""
    b = x.shape[0]
    on = (rand(b, 1, 1, 1) < share).float()
    kept = 1 - on * (1 - rand(b, 1, 1, 1) * MAX_KEPT_COLOUR)
    grey = x.mean(dim=1, keepdim=True)
    return grey + (x - grey) * kept


def center_crop(batch: torch.Tensor) -> torch.Tensor:
    """The exact crop the classifier reads at inference (no augmentation)."""
    off = (PATCH - CROP_SIZE) // 2
    return batch[:, :, off : off + CROP_SIZE, off : off + CROP_SIZE]


def to_tensor(patches: np.ndarray, device: str) -> torch.Tensor:
    return torch.from_numpy(patches).to(device).permute(0, 3, 1, 2).float().div_(255)


@torch.no_grad()
def accuracy(net: torch.nn.Module, patches: np.ndarray, labels: np.ndarray, device: str) -> float:
    """Top-1 accuracy on unaugmented centre crops."""
    if len(labels) == 0:
        return float("nan")
    net.eval()
    correct = 0
    for i in range(0, len(labels), 1024):
        x = center_crop(to_tensor(patches[i : i + 1024], device))
        correct += (net(x).argmax(1).cpu().numpy() == labels[i : i + 1024]).sum()
    return float(correct / len(labels))


def load_classifier(path: str | Path | None, device: str = "cpu", width: int = 16) -> CornerClassifier:
    """A ``CornerClassifier`` with the weights in ``path`` when it exists, widened to ``width`` if narrower."""
    state = torch.load(path, map_location="cpu", weights_only=False) if path and Path(path).exists() else None
    if isinstance(state, dict) and "state_dict" in state:
        net = classifier_from_checkpoint(state)
    else:
        net = CornerClassifier(width=width)
        if state is not None:
            net.load_state_dict(state)
    if width > net.features[0][0].out_channels:
        net = widen(net, width)
    return net.to(device)


def checkpoint_crop_scale(path: str | Path) -> float:
    """The crop scale the classifier in ``path`` was trained at (``CROP_SCALE`` for weights that do not say)."""
    return crop_scale_of(torch.load(path, map_location="cpu", weights_only=False))


def crop_scale_of(checkpoint: object) -> float:
    """The crop scale a loaded classifier checkpoint was trained at (``CROP_SCALE`` for one that does not say)."""
    return float(checkpoint.get("crop_scale", CROP_SCALE)) if isinstance(checkpoint, dict) else CROP_SCALE


def classifier_from_checkpoint(checkpoint: dict) -> CornerClassifier:
    """The classifier a ``save_checkpoint`` file holds, at its saved width."""
    net = CornerClassifier(width=checkpoint.get("width", 16))
    net.load_state_dict(checkpoint["state_dict"])
    return net


@torch.no_grad()
def widen(net: CornerClassifier, width: int) -> CornerClassifier:
    """The same function in a wider net: old weights kept, new channels read freshly but feed nothing yet.

    Each new channel gets random incoming weights and zero outgoing ones, so the wider net's outputs
    equal the narrow net's until training gives the new channels a say (a function-preserving widening).
    """
    wide = CornerClassifier(width=width)
    for old, new in zip(net.modules(), wide.modules(), strict=True):
        if isinstance(old, torch.nn.Conv2d | torch.nn.Linear):
            o, i = old.weight.shape[:2]
            new.weight[:o, i:] = 0
            new.weight[:o, :i] = old.weight
            if old.bias is not None:
                new.bias[:o] = old.bias
        elif isinstance(old, torch.nn.BatchNorm2d):
            n = old.num_features
            for name in ("weight", "bias", "running_mean", "running_var"):
                getattr(new, name)[:n] = getattr(old, name)
    return wide


def train_classifier(
    patches: np.ndarray,
    labels: np.ndarray,
    out: Path,
    *,
    epochs: float = 10,
    batch: int = 256,
    lr: float = 2e-3,
    device: str = "cpu",
    start: Path | None = None,
    val: dict | None = None,
    max_seconds: float | None = None,
    seed: int = 0,
    width: int = 16,
    lowres: float = 0.0,
    crop_scale: float = CROP_SCALE,
    washout: float = 0.0,
    anchor: float = 0.0,
    anchor_unwashed: bool = False,
) -> ClassifierRun:
    """Train (or continue training) and save the best-by-first-validation-set weights to ``out``, with the
    ``crop_scale`` its patches were cut at (``vision.training.classifier_data``), which its reader must use.

    The start, as loaded and widened, is saved first beside ``out`` (``start_path(out)``), so a run can be
    averaged back with its exact start (``average_weights``) without rebuilding a widening's random channels.
    With ``anchor`` over 0 and a ``start``, each batch is also pulled toward the start's own read of it, right or
    wrong (``anchored_loss``), so a continued run moves less far from its start; without a start it is not anchored.
    With ``anchor_unwashed`` the start reads each crop as it was before its washout (``augment_unwashed_too``): a faded
    crop is pulled toward what the start read in full colour.
    """
    torch.manual_seed(seed)
    gen = torch.Generator().manual_seed(seed)
    net = load_classifier(start, device, width)
    save_checkpoint(net, start_path(out), crop_scale=crop_scale)
    teacher = copy.deepcopy(net).eval() if anchor > 0 and start is not None else None
    steps = max(1, int(epochs * len(labels) / batch))
    opt = torch.optim.AdamW(net.parameters(), lr=lr, weight_decay=1e-4)
    data = torch.from_numpy(patches)  # uint8 NHWC on the CPU; batches move to the device
    target = torch.from_numpy(labels.astype(np.int64))
    run = ClassifierRun(samples=len(labels), epochs=epochs, seconds=0.0, device=device)
    started = time.perf_counter()
    best = -1.0
    next_eval = 0.25
    step = 0
    while True:
        # progress by steps or by the wall-time cap, whichever is further: the schedule always completes
        elapsed = time.perf_counter() - started
        progress = max(step / steps, elapsed / max_seconds if max_seconds else 0.0)
        if progress >= next_eval or progress >= 1:
            scores = {name: accuracy(net, p, y, device) for name, (p, y) in (val or {}).items()}
            record = {
                "step": step,
                "progress": round(min(progress, 1), 3),
                **{k: round(v, 4) for k, v in scores.items()},
            }
            run.history.append(record)
            print(f"classifier {record}", file=sys.stderr, flush=True)
            first = next(iter(scores.values()), progress)
            if first >= best:
                best = first
                run.kept = record
                save_checkpoint(net, out, run.history, crop_scale)
            next_eval += 0.25
        if progress >= 1:
            break
        for group in opt.param_groups:
            group["lr"] = lr * (progress / 0.05 if progress < 0.05 else 0.5 * (1 + math.cos(math.pi * progress)))
        net.train()
        idx = torch.randint(len(target), (batch,), generator=gen)
        raw = data[idx].to(device).permute(0, 3, 1, 2).float().div_(255)
        if teacher is not None and anchor_unwashed:
            x, seen_by_start = augment_unwashed_too(raw, gen, lowres, washout)
        else:
            x = seen_by_start = augment(raw, gen, lowres, washout)
        logits = net(x)
        loss = F.cross_entropy(logits, target[idx].to(device), label_smoothing=0.05)
        if teacher is not None:
            loss = loss + anchor * anchored_loss(logits, teacher, seen_by_start)
        opt.zero_grad(set_to_none=True)
        loss.backward()
        opt.step()
        step += 1
    run.seconds = time.perf_counter() - started
    run.epochs = round(step * batch / max(len(labels), 1), 2)
    return run


ANCHOR_TEMPERATURE = 2.0  # how soft the start's read is when a continued run is anchored to it


def anchored_loss(logits: torch.Tensor, teacher: torch.nn.Module, x: torch.Tensor) -> torch.Tensor:
    """How far ``logits`` have moved from ``teacher``'s read of the crops ``x`` (the same crops, or the same before
    their washout): the KL divergence of the two softened distributions (temperature ``ANCHOR_TEMPERATURE``), scaled
    by its square as distillation does."""
    with torch.no_grad():
        old = F.log_softmax(teacher(x) / ANCHOR_TEMPERATURE, dim=1)
    new = F.log_softmax(logits / ANCHOR_TEMPERATURE, dim=1)
    return F.kl_div(new, old, log_target=True, reduction="batchmean") * ANCHOR_TEMPERATURE**2


def start_path(out: Path) -> Path:
    """Where ``train_classifier`` keeps the start of the run that writes ``out``."""
    return Path(out).with_name(f"{Path(out).stem}_start{Path(out).suffix}")


def save_checkpoint(
    net: torch.nn.Module, out: Path, history: list[dict] | None = None, crop_scale: float = CROP_SCALE
) -> None:
    """Save ``net``'s weights, width and crop scale to ``out``, with the training ``history`` that led to them."""
    Path(out).parent.mkdir(parents=True, exist_ok=True)
    state = {k: v.detach().cpu() for k, v in net.state_dict().items()}
    width = net.features[0][0].out_channels
    torch.save(
        {
            "state_dict": state,
            "width": width,
            "classes": NUM_CLASSES,
            "crop_scale": crop_scale,
            "history": list(history or []),
        },
        out,
    )


def export_classifier_onnx(pt: Path, onnx_path: Path) -> Path:
    """Export ``pt`` as ONNX: input ``crops`` (N,3,S,S) RGB 0..1, output ``probs`` (N,53)."""
    net = ProbabilityHead(load_classifier(pt)).eval()
    dummy = torch.rand(2, 3, CROP_SIZE, CROP_SIZE)
    torch.onnx.export(
        net,
        (dummy,),
        str(onnx_path),
        input_names=["crops"],
        output_names=["probs"],
        dynamic_axes={"crops": {0: "n"}, "probs": {0: "n"}},
        opset_version=17,
        dynamo=False,
    )
    return Path(onnx_path)
