"""A continued classifier anchored to its start (``--classifier-anchor``): the pull is distillation toward the
start's own read, and it keeps the run nearer its start."""

import numpy as np
import torch

from cribcam.cli import main
from vision.crops import CROP_SIZE
from vision.training.classifier_data import PATCH
from vision.training.classifier_net import CornerClassifier
from vision.training.train_classifier import (
    ANCHOR_TEMPERATURE,
    anchored_loss,
    augment,
    augment_unwashed_too,
    load_classifier,
    save_checkpoint,
    train_classifier,
)


def test_the_anchor_costs_nothing_where_the_read_is_the_starts_and_grows_as_it_moves():
    torch.manual_seed(0)
    teacher = CornerClassifier(width=8).eval()
    x = torch.rand(6, 3, CROP_SIZE, CROP_SIZE)
    with torch.no_grad():
        same = teacher(x)
    assert float(anchored_loss(same, teacher, x)) < 1e-6
    near = float(anchored_loss(same + 0.1 * torch.randn_like(same), teacher, x))
    far = float(anchored_loss(same + 3.0 * torch.randn_like(same), teacher, x))
    assert 0 < near < far


def test_the_anchor_is_the_starts_softened_read_against_the_runs_by_kl_times_the_temperature_squared():
    torch.manual_seed(2)
    teacher = CornerClassifier(width=8).eval()
    x = torch.rand(5, 3, CROP_SIZE, CROP_SIZE)
    logits = torch.randn(5, 53)
    with torch.no_grad():
        t = ANCHOR_TEMPERATURE
        old = torch.softmax(teacher(x) / t, 1).double()
        new = torch.softmax(logits / t, 1).double()
    by_hand = t * t * float((old * (old.log() - new.log())).sum(1).mean())  # KL(start || run), batch mean
    assert abs(float(anchored_loss(logits, teacher, x)) - by_hand) < 1e-4 * max(1.0, by_hand)


def test_a_run_with_nothing_to_continue_is_not_anchored(tmp_path):
    rng = np.random.default_rng(3)
    patches = rng.integers(0, 256, (32, PATCH, PATCH, 3), dtype=np.uint8)
    labels = rng.integers(0, 53, 32)
    x = torch.rand(4, 3, CROP_SIZE, CROP_SIZE)
    reads = []
    for anchor in (0.0, 5.0):
        out = tmp_path / f"new{anchor:g}.pt"
        train_classifier(patches, labels, out, epochs=2, batch=16, width=8, anchor=anchor)
        with torch.no_grad():
            reads.append(load_classifier(out, width=8).eval()(x))
    assert torch.equal(reads[0], reads[1])


def random_start_and_patches(tmp_path, seed: int, rng_seed: int, n: int):
    """A random narrow start saved to ``tmp_path`` and ``n`` random patches with random labels (which the start does
    not read, so training must move it)."""
    start = tmp_path / "start.pt"
    torch.manual_seed(seed)
    save_checkpoint(CornerClassifier(width=8), start, crop_scale=1.3)
    rng = np.random.default_rng(rng_seed)
    return start, rng.integers(0, 256, (n, PATCH, PATCH, 3), dtype=np.uint8), rng.integers(0, 53, n)


def test_an_anchored_run_stays_nearer_its_start_than_a_free_one(tmp_path):
    start, patches, labels = random_start_and_patches(tmp_path, 1, 0, 96)
    x = torch.rand(16, 3, CROP_SIZE, CROP_SIZE)
    with torch.no_grad():
        before = torch.softmax(load_classifier(start, width=8).eval()(x), 1)
    moved = {}
    for anchor in (0.0, 20.0):
        out = tmp_path / f"anchor{anchor:g}.pt"
        train_classifier(patches, labels, out, epochs=8, batch=32, lr=5e-3, start=start, width=8, anchor=anchor)
        with torch.no_grad():
            after = torch.softmax(load_classifier(out, width=8).eval()(x), 1)
        moved[anchor] = float((after - before).abs().sum(1).mean())
    assert moved[20.0] < moved[0.0]


def test_a_negative_or_not_finite_anchor_is_refused_in_one_sentence(tmp_path, capsys):
    (tmp_path / "images" / "train").mkdir(parents=True)
    for weight in ("-1", "nan", "inf"):
        args = ["train", "--data", str(tmp_path), "--models", str(tmp_path / "m"), "--classifier-anchor", weight]
        assert main(args) == 2
        assert f"--classifier-anchor is a weight of 0 or more (got {float(weight)})." in capsys.readouterr().err
    assert not (tmp_path / "m").exists()


def test_the_unwashed_view_is_the_same_crop_with_its_colour_kept():
    torch.manual_seed(4)
    batch = torch.rand(48, 3, PATCH, PATCH)
    batch[:, 0] = 0.9  # a strong red cast: colour a washout fades
    washed, unwashed = augment_unwashed_too(batch, torch.Generator().manual_seed(7), 0.3, 1.0)
    assert torch.equal(washed, augment(batch, torch.Generator().manual_seed(7), 0.3, 1.0))  # the run's crops unchanged

    def colour(x: torch.Tensor) -> torch.Tensor:
        return (x.amax(1) - x.amin(1)).mean((1, 2))

    assert float(colour(unwashed).mean()) > 1.5 * float(colour(washed).mean())
    assert (colour(unwashed) >= colour(washed) - 1e-6).float().mean() > 0.9  # crop by crop, bar the clamp's edges
    same, also_same = augment_unwashed_too(batch, torch.Generator().manual_seed(7), 0.3, 0.0)
    assert torch.equal(same, also_same)  # with no washout the start reads the very crop the run reads


def test_the_unwashed_view_differs_from_the_washed_one_by_the_washout_alone(monkeypatch):
    import vision.training.train_classifier as trainer

    def draws_but_keeps(x, rand, share):  # the washout's own draws, its colours untouched
        rand(x.shape[0], 1, 1, 1), rand(x.shape[0], 1, 1, 1)
        return x.clone()

    monkeypatch.setattr(trainer, "wash_out", draws_but_keeps)
    batch = torch.rand(32, 3, PATCH, PATCH, generator=torch.Generator().manual_seed(8))
    washed, unwashed = augment_unwashed_too(batch, torch.Generator().manual_seed(9), 0.3, 0.7)
    assert torch.equal(washed, unwashed)  # row for row: every other draw is shared between the two views


def test_an_unwashed_anchor_differs_from_the_plain_one_only_where_crops_are_washed(tmp_path):
    start, patches, labels = random_start_and_patches(tmp_path, 5, 6, 64)
    x = torch.rand(8, 3, CROP_SIZE, CROP_SIZE)
    reads = {}
    for washout in (0.0, 1.0):
        for unwashed in (False, True):
            out = tmp_path / f"w{washout:g}{unwashed}.pt"
            train_classifier(
                patches,
                labels,
                out,
                epochs=3,
                batch=16,
                start=start,
                width=8,
                washout=washout,
                anchor=2.0,
                anchor_unwashed=unwashed,
            )
            with torch.no_grad():
                reads[washout, unwashed] = load_classifier(out, width=8).eval()(x)
    assert torch.equal(reads[0.0, False], reads[0.0, True])
    assert not torch.allclose(reads[1.0, False], reads[1.0, True])


def test_an_unwashed_anchor_needs_an_anchor_and_a_washout(tmp_path, capsys):
    (tmp_path / "images" / "train").mkdir(parents=True)
    base = ["train", "--data", str(tmp_path), "--models", str(tmp_path / "m"), "--classifier-anchor-unwashed"]
    for extra in ([], ["--classifier-anchor", "1"], ["--classifier-washout", "0.5"]):
        assert main([*base, *extra]) == 2
        assert "--classifier-anchor-unwashed needs a --classifier-anchor and a --classifier-washout over 0." in (
            capsys.readouterr().err
        )
    assert not (tmp_path / "m").exists()
