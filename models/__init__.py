"""The trained models and their model card, shipped as ``cribcam.models`` (see ``vision.model_location``)."""
