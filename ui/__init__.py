"""The Streamlit app's pages: count a hand, track a game, learn. ``app.py`` only calls ``main``."""
