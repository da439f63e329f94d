"""The ``cribcam`` command line; the engines live in ``scorer`` and ``vision``."""
