"""Synthetic photos of cribbage scenes with exact corner-index labels, for training the detector.

>>> from vision.training.synth import generate
>>> generate("data/synth", n=20000, seed=0, workers=2)  # doctest: +SKIP

Modules: ``layouts`` (where cards lie), ``textures`` (tables, clutter, backs, skin), ``compose`` (warping
sprites and the visibility rule), ``camera`` (tilt, light, glare, blur, noise, JPEG), ``scene`` (one
photo with its labels), ``dataset`` (the ultralytics dataset on disk), ``testdeck`` (a procedural deck).
"""

from vision.training.synth.compose import VISIBLE_FRACTION
from vision.training.synth.dataset import generate, held_out_decks
from vision.training.synth.scene import DeckArt, render_scene

__all__ = ["VISIBLE_FRACTION", "DeckArt", "generate", "held_out_decks", "render_scene"]
