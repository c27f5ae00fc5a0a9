"""The drivers: the command line, the server, the simulation runner and the bot factory.

They sit on top of the families and know none of them by name; nothing below imports them
(the "layers" contract in pyproject.toml).
"""
