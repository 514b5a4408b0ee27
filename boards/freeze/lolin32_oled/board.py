from lolin32_oled import *  # noqa: F401,F403  (generated: the board choice)
