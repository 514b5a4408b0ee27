"""The link game (LINK GAME in the menu): one handheld per player over ESP-NOW. Loaded
only when a link game is chosen (docs/link.md): App.link_session() calls
session(), and the menu's return forgets the package (app._MENU_SCREENS)."""


def session(app, role, saved=None):
    """A host (role "H") or guest ("G") on the radio, which it turns on (saved: the
    bytes of a link save to continue); role None turns the radio off."""
    r = getattr(app, "link_radio", None)
    if role is None:
        if r is not None:
            r.close()
            app.link_radio = None
        return None
    if r is None:
        from link.radio import Radio
        r = app.link_radio = Radio()
    if role == "H":
        from link.host import Host
        return Host(r, app.source, saved=saved)
    from link.guest import Guest
    return Guest(r, app.source, saved=saved)
