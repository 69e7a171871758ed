"""The table runtime: menus, seat faces and their pixels, the journal and the saved game.

One loop turns button events into menu moves and engine actions, saves every
accepted action before a screen shows it, and redraws the seats whose face
changed.
"""
