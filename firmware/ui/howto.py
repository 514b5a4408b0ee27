"""How to play: a few short pages per game. PREV/NEXT turn pages, OK jumps to the next
part (a title without ':' starts one: SHAKE UP, FARKLE FRENZY, CONTROLS; the bottom
line names it), OK in the last part and BACK leave. The texts live in this module,
imported only when the screen is opened."""
from ui import gfx
from ui.screens import BACK, NEXT, OK, PREV, Screen

PAGES = (
    ("SHAKE UP", (
        "GET ALL 5 PAWNS UP THE",
        "PYRAMID INTO SAFE FIRST.",
        "A TURN: SHAKE 4 DICE, UP",
        "TO 3 TIMES. BETWEEN SHAKES",
        "SET ASIDE DICE YOU LIKE,",
        "OR STOP AND KEEP THEM.")),
    ("SHAKE UP: RESULTS", (
        "BIG: 4 OF A KIND, RUN OF 4",
        "MOVE: 3 OF A KIND, RUN OF",
        "  3, OR TWO PAIRS",
        "  -> MOVE A PAWN UP",
        "PAIR: NOTHING HAPPENS",
        "NONE: TOP PAWN BACK TO 1")),
    ("SHAKE UP: BIG", (
        "ON SHAKE 1: MOVE UP,",
        "PENALIZE A RIVAL (IF YOU",
        "WANT), THEN PLAY AGAIN.",
        "ON SHAKE 2 OR 3: MOVE UP,",
        "THEN PLAY AGAIN OR SEND",
        "A RIVAL PAWN BACK TO 1.")),
    ("SHAKE UP: CLIMBING", (
        "A PAWN MAY CLIMB WHEN 2",
        "OF YOURS SHARE ITS LEVEL,",
        "OR IT IS ALONE ON YOUR",
        "LOWEST LEVEL.",
        "SAFE PAWNS CAN NEVER BE",
        "SENT BACK.")),
    ("FARKLE FRENZY", (
        "ROLL 5 DICE, PUT SCORING",
        "DICE ON YOUR RISER, THEN",
        "ROLL ON OR BANK. NO SCORE:",
        "FARKLE, THE ROUND IS LOST.",
        "10,000 ENDS THE GAME AFTER",
        "THAT ROUND: MOST POINTS WINS.")),
    ("FRENZY: SCORES", (
        "1 = 100      5 = 50",
        "THREE 1S = 300 (OR 1000)",
        "THREE NS = N X 100",
        "FOUR OF A KIND = 1000",
        "FIVE OF A KIND = 2000",
        "ONLY DICE OF ONE ROLL COUNT.")),
    ("FRENZY: SIX DICE", (
        "WITH THE COMMON DIE:",
        "SIX OF A KIND = 3000",
        "RUN 1-2-3-4-5-6 = 1500",
        "THREE PAIRS = 1500",
        "4 OF A KIND + PAIR = 1500",
        "TWO TRIPLETS = 2500")),
    ("FRENZY: COMMON DIE", (
        "ONE SHARED DIE PER ROUND.",
        "1 OR 5: ONCE PER 5 DICE,",
        "AGAIN AFTER A FULL RISER.",
        "WILD: THE ROLLER PICKS",
        "ITS VALUE. 2X: EVERY",
        "ROUND SCORE IS DOUBLED.")),
    ("FRENZY: THE RISER", (
        "FILL ALL 5 STEPS AND THE",
        "OTHERS STOP AT ONCE; YOU",
        "MAY ROLL ALL 5 AGAIN.",
        "YOUR FIRST SCORE NEEDS",
        "400 IN ONE ROUND.",
        "ODDS: RISK OF A FARKLE.")),
    ("FRENZY: TURNS", (
        "RELAY: EACH PLAYS A WHOLE",
        "ROUND IN TURN; THE OTHERS'",
        "ROUNDS SHOW AT THE SUMMARY.",
        "LOCKSTEP: ONE ROLL EACH IN",
        "TURN, ALL IN VIEW. SAME",
        "SCORES. SETTINGS: TURNS.")),
    ("CPU PLAYERS", (
        "IN A GAME SETUP ANY SEAT",
        "CAN BE A CPU: EASY, NORMAL",
        "OR HARD. IT PLAYS HERE ON",
        "THE SCREEN: OK HURRIES IT.",
        "IT SEES ONLY WHAT YOU",
        "WOULD SEE IN ITS SEAT.")),
    ("CONTROLS", (
        "< >  MOVE      OK  CHOOSE",
        "SHAKE THE DEVICE TO ROLL",
        "(OR OK ON SHAKE / ROLL).",
        "BACK: MENU.",
        "EVERY MOVE IS FINAL (NO",
        "UNDO) AND SAVED: CONTINUE.")),
    ("CONTROLS: DARK SCREEN", (
        "IDLE, THE SCREEN DIMS, THEN",
        "GOES DARK (SETTINGS). A KEY",
        "ON A DIM SCREEN ACTS. ON A",
        "DARK ONE < > ACT AND A SHAKE",
        "ROLLS, BUT OK AND BACK ONLY",
        "WAKE IT: NOTHING CHOSEN BLIND.")),
)


# Boards with 3 buttons have no BACK: a long press of OK is BACK there (hal.buttons),
# while on 4-button boards holding OK does nothing, so the line names the right one.
_BACK_LINE = "BACK: MENU."
_BACK_LINE_3 = "HOLD OK: MENU (= BACK)."


class HowTo(Screen):
    NAME = "howto"

    def __init__(self, app):
        Screen.__init__(self, app)
        b = getattr(app.board, "BUTTONS", None)
        self.three = b is not None and "BACK" not in b
        self.page = 0
        self.num = ""
        self.jump = -1  # the first page of the next part, -1: none (OK leaves)
        self.hint = ""
        self._number()

    def _number(self):
        self.num = "%d/%d" % (self.page + 1, len(PAGES))
        self.jump = -1
        for i in range(self.page + 1, len(PAGES)):
            if ":" not in PAGES[i][0]:
                self.jump = i
                break
        self.hint = "< > PAGE  OK: " + (PAGES[self.jump][0] if self.jump >= 0 else "MENU")

    def on_key(self, k):
        n = len(PAGES)
        if k == BACK:
            self.app.menu()
            return
        if k == OK:
            if self.jump < 0:
                self.app.menu()
                return
            self.page = self.jump
        elif k == NEXT:
            self.page = (self.page + 1) % n
        elif k == PREV:
            self.page = (self.page - 1) % n
        else:
            return
        self._number()
        self.app.play_select()
        self.dirty = True

    def draw(self, fb):
        title, lines = PAGES[self.page]
        fb.fill_rect(0, 0, 128, 9, 1)
        gfx.text(fb, title, 2, 2, 0)
        gfx.right(fb, self.num, 126, 2, 0)
        y = 12
        for ln in lines:
            if self.three and ln == _BACK_LINE:
                ln = _BACK_LINE_3
            gfx.text(fb, ln, 2, y)
            y += 8
        gfx.text(fb, self.hint, 2, 58)
