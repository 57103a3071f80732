"""Written when the package was built (setup.py)."""
LIBDIR = None
