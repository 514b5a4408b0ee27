# Runs before main.py on every boot. Nothing to set up: main.py starts the app, so a
# broken main.py still leaves the REPL reachable for mpremote.
