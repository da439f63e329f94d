# The decks that no training set draws from, sourced by eval_all.sh and make_training_data.sh:
#   VAL: the three held-out val decks; UNSEEN: five decks whose design families are never trained on.
VAL=(gnome-anglo gnome-anglo-bitmap gnome-anglo-modern-4-color)
UNSEEN=(gnome-bellot gnome-paris kde-gm-paris kde-jolly-royal npm-svg-cards)
