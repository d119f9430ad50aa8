"""The Qt-free core: data, formats, parameters, engine, metrics and models."""
