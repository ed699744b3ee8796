"""atlas-build: build system and validator for technical lesson content."""

__version__ = "0.1.0"
