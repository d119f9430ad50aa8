"""Reports of ranking comparisons for people who do not drive sliders: text for the
terminal, Markdown for a pull request."""
