"""The classifier's shape augmentation: other decks' proportions, slant and ink weight."""

from __future__ import annotations

import torch

from vision.training import train_classifier
from vision.training.train_classifier import reshape, restroke


def uniforms(seed: int):
    gen = torch.Generator().manual_seed(seed)
    return lambda *shape: torch.rand(*shape, generator=gen)


def test_reshape_keeps_area_and_leaves_most_off_patches_alone():
    m = reshape(2000, uniforms(0))
    assert torch.allclose(torch.linalg.det(m), torch.ones(2000), atol=1e-5)  # stretched one way, squeezed the other
    identity = torch.isclose(m, torch.eye(2).expand_as(m), atol=1e-6).all(dim=(1, 2))
    share = identity.float().mean().item()
    assert abs(share - (1 - train_classifier.RESHAPE_P)) < 0.05
    stretch = m[:, 0, 0].log().abs()
    assert stretch.max() <= train_classifier.MAX_STRETCH + 1e-6 and stretch.max() > 0.1
    assert m[:, 0, 1].abs().max() <= train_classifier.MAX_SHEAR + 1e-6


def test_restroke_makes_ink_bolder_or_lighter_and_keeps_white_paper():
    x = torch.ones(400, 3, 12, 12)
    x[:, :, 4:8, 5:7] = 0.0  # a black stroke two pixels wide on white paper
    y = restroke(x, uniforms(1))
    assert torch.equal(y[:, :, :2], x[:, :, :2])  # paper away from the stroke stays white
    ink = (1 - y).sum(dim=(1, 2, 3))
    before = (1 - x).sum(dim=(1, 2, 3))
    bolder, lighter, same = (ink > before + 1).sum(), (ink < before - 1).sum(), torch.isclose(ink, before).sum()
    assert bolder > 10 and lighter > 10  # some strokes grew, some thinned ...
    assert same > 250  # ... most were left as drawn


def test_coarsen_blurs_only_its_share_and_keeps_flat_paper_flat():
    x = torch.ones(400, 3, 40, 40)
    x[:, :, 18:22, :] = 0.0  # a black bar four pixels tall on white paper
    y = train_classifier.coarsen(x, uniforms(2), 0.3)
    changed = ~torch.isclose(y, x, atol=1e-4).flatten(1).all(dim=1)
    assert 0.2 < changed.float().mean().item() < 0.4  # about the share asked, the rest left as drawn
    assert torch.allclose(y[:, :, :8], x[:, :, :8], atol=1e-4)  # flat paper stays flat
    assert (y[changed][:, :, 17] < 0.99).all()  # the bar's edge spreads into its neighbours
    assert torch.equal(train_classifier.coarsen(x, uniforms(3), 0.0), x)


def test_wash_out_fades_the_colour_of_its_share_and_keeps_grey_and_brightness():
    x = torch.ones(400, 3, 12, 12)
    x[:, 0, 4:8, 4:8], x[:, 1, 4:8, 4:8] = 0.1, 0.2  # a blue diamond's ink on white paper
    y = train_classifier.wash_out(x, uniforms(4), 0.3)
    spread = lambda t: (t.max(dim=1).values - t.min(dim=1).values).amax(dim=(1, 2))  # noqa: E731
    faded = spread(y) < spread(x) - 1e-4
    assert 0.2 < faded.float().mean().item() < 0.4  # about the share asked, the rest left as drawn
    assert (spread(y)[faded] <= spread(x)[faded] * train_classifier.MAX_KEPT_COLOUR + 1e-5).all()
    assert torch.allclose(y.mean(dim=1), x.mean(dim=1), atol=1e-5)  # each pixel as bright as before
    assert torch.equal(y[:, :, :2], x[:, :, :2])  # white paper stays white
    assert torch.allclose(train_classifier.wash_out(x, uniforms(5), 0.0), x, atol=1e-6)
