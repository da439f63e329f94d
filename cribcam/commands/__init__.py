"""One module per ``cribcam`` subcommand, found automatically by ``cribcam.cli``."""
