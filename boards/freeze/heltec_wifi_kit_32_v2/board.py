from heltec_wifi_kit_32_v2 import *  # noqa: F401,F403  (generated: the board choice)
