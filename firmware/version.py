# The one version string of Pocket Dice: Settings shows it, tools/flashing/build.py prints it,
# release files and package.json carry it. Bump it with a CHANGELOG.md entry.
VERSION = "0.5.1"
