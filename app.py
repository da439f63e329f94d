"""cribcam in the browser: ``streamlit run app.py``. The pages live in ``ui/``."""

from ui.main import main

main()
