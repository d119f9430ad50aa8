"""Performance harness, run by `workbench bench`."""
