"""The desktop face: a PySide6 + pyqtgraph window over `workbench.core.session.TuningSession`.

Every panel takes the session, subscribes to the session's events and updates itself; panels
never reach into each other. `worker.LiveLoop` runs the request → result loop off the GUI
thread. Nothing under `workbench.core` imports this package.
"""
