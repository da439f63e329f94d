"""The model factory: card art, synthetic photos, training data, the trainers and their evaluation.

Only this subpackage imports PyTorch, ultralytics or cairosvg (install ``cribcam[train]``); reading a
photo (``vision``'s top level, the app, ``cribcam photo``) never imports it.
"""
