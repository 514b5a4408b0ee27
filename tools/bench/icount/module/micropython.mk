# icount: the frame model's instruction counter, the guest side (tools/bench/mp32.py
# --frame builds it in; tools/bench/icount/tool.c is the valgrind tool it asks).
ICOUNT_MOD_DIR := $(USERMOD_DIR)
SRC_USERMOD_C += $(ICOUNT_MOD_DIR)/icount.c
CFLAGS_USERMOD += -I$(ICOUNT_MOD_DIR)/..
