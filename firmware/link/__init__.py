"""The link game (LINK GAME in the menu): one handheld per player over ESP-NOW. Loaded
only when a link game is chosen (README "Link game")."""
