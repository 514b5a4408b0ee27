from heltec_wifi_kit_32_v3 import *  # noqa: F401,F403  (generated: the board choice)
