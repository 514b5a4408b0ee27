# The handheld's own services, below the games: saving (store), power (dim, sleep,
# battery), the crash guard and watchdog (guard, watch, crashlog) and the heap's hold.
