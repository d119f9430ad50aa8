"""Scoring Workbench: tune how retrieval systems score."""

__version__ = "0.2.0"
