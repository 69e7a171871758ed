"""Example table files, shipped as package data.

A package (not a plain folder) so setuptools installs the ``*.toml`` files and
``importlib.resources.files("hardware.tables")`` finds them after install.
"""
