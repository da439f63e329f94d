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


def test_an_anchored_run_stays_nearer_its_start_than_a_free_one(tmp_path):
    start = tmp_path / "start.pt"
    torch.manual_seed(1)
    save_checkpoint(CornerClassifier(width=8), start, crop_scale=1.3)
    rng = np.random.default_rng(0)
    patches = rng.integers(0, 256, (96, PATCH, PATCH, 3), dtype=np.uint8)
    labels = rng.integers(0, 53, 96)  # labels the start does not read: training must move it
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
