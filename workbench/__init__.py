"""Scoring Workbench: tune how retrieval systems score."""

__version__ = "0.1.0"
