#!/usr/bin/python3
"""spec/browser_test.py: boardscript serve in a real browser.

Starts `boardscript serve --port 0`, opens its page in headless Chromium
(Debian's chromium + chromium-driver, driven by python3-selenium), and plays
whole games by clicking: 6 x 6 Reversi against greedy, and a 2 x 2 Dots and
Boxes against dots_search by clicking edges. After every move it checks the
page against the engine's own view of the game (the API): the discs on the
board, the side to move, the move list; at the end, the record the page
downloads replays to the same result. A move typed in the move box (keyboard
play) and a refused move (its reason shown in the page) are checked too.
Screenshots go to BUILD/serve-*.png (or the directory in $SCREENSHOTS).

Exit status 0: passed; 77: skipped (no chromium, chromedriver or selenium:
ctest shows it as skipped, with the reason on the first line); 1: failed.
"""
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
import urllib.request

SKIP = 77


def skip(why):
    print(f"SKIPPED: {why} (scripts/bootstrap installs chromium, chromium-driver and python3-selenium)")
    sys.exit(SKIP)


try:
    from selenium import webdriver
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.ui import WebDriverWait
except ImportError:
    skip("python3-selenium is not installed")

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
DRIVER = shutil.which("chromedriver")
if not CHROMIUM or not DRIVER:
    skip("chromium or chromedriver is not installed")

BIN = os.environ.get("BOARDSCRIPT_BIN") or os.path.join(os.path.dirname(__file__), "..", "build", "boardscript")
SHOTS = os.environ.get("SCREENSHOTS") or os.path.dirname(os.path.abspath(BIN))


def start_server():
    proc = subprocess.Popen([BIN, "serve", "--port", "0", "--seed", "11"], stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True, start_new_session=True)
    line = proc.stdout.readline()
    m = re.search(r"(http://127\.0\.0\.1:\d+/)", line)
    if not m:
        proc.kill()
        raise SystemExit(f"the server did not start: {line!r}")
    return proc, m.group(1)


def api(base, path):
    with urllib.request.urlopen(base + path, timeout=30) as r:
        return json.loads(r.read().decode())


def fetch(base, path):
    with urllib.request.urlopen(base + path, timeout=30) as r:
        return r.read().decode()


def browser(width, height):
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                f"--window-size={width},{height}"):
        options.add_argument(arg)
    service = webdriver.ChromeService(executable_path=DRIVER) if hasattr(webdriver, "ChromeService") \
        else webdriver.chrome.service.Service(executable_path=DRIVER)
    return webdriver.Chrome(service=service, options=options)


def game_id(driver):
    m = re.search(r"[?&]game=(\d+)", driver.current_url)
    return m and m.group(1)


def settled(driver, base):
    """Waits until the page shows a game where a human is to move or that is over; returns the API's view."""
    view = {}

    def ready(_):
        nonlocal view
        gid = game_id(driver)
        if not gid:
            return False
        view = api(base, f"api/games/{gid}")
        if not (view["finished"] or view["human_to_move"]):
            return False
        return same_log(driver.find_element(By.ID, "log").text.split(), view["log"])
    WebDriverWait(driver, 60, poll_frequency=0.05).until(ready)
    return view


def same_log(shown, log):
    # dots moves hold a space ("a1 a2"): compare the joined text
    return " ".join(shown) == " ".join(f"{i + 1}.{m}" for i, m in enumerate(log))


def check_page(driver, view, failures):
    status = driver.find_element(By.ID, "status").text
    if view["finished"]:
        if not status.startswith("Game over"):
            failures.append(f"finished game, status {status!r}")
    elif not status.startswith(view["side_name"] + " to move"):
        failures.append(f"status {status!r}, {view['side_name']} is to move")
    if view["rules"] != "dots":
        black = len(driver.find_elements(By.CSS_SELECTOR, "#board circle.disc.black"))
        white = len(driver.find_elements(By.CSS_SELECTOR, "#board circle.disc.white"))
        if [black, white] != view["score"]:
            failures.append(f"page shows {black}-{white} discs, the engine {view['score']}")


def play_reversi(driver, base, failures):
    driver.get(base + "?rules=reversi&size=6&white=greedy")
    view = settled(driver, base)
    # a refused move shows its reason; the game is unchanged
    box = driver.find_element(By.ID, "move")
    box.send_keys("a1", Keys.ENTER)
    WebDriverWait(driver, 10).until(lambda d: "not a legal move" in d.find_element(By.ID, "message").text)
    # a typed move (keyboard play)
    box.send_keys(view["moves"][0], Keys.ENTER)
    view = settled(driver, base)
    check_page(driver, view, failures)
    moves = 1
    while not view["finished"]:
        if view["moves"]:
            cell = view["moves"][moves % len(view["moves"])]
            driver.find_element(By.CSS_SELECTOR, f'#board rect.cell[data-cell="{cell}"]').click()
        else:
            driver.find_element(By.ID, "pass").click()
        moves += 1
        view = settled(driver, base)
        check_page(driver, view, failures)
        if moves == 6:
            driver.save_screenshot(os.path.join(SHOTS, "serve-reversi.png"))
    record = fetch(base, f"api/games/{view['id']}/record")
    play_reversi.record = record
    played = [line.split(" ", 1)[1] if line.startswith("move ") else "pass"
              for line in record.splitlines() if line.startswith("move ") or line == "pass"]
    if played != view["log"]:
        failures.append("the record's moves are not the game's")
    if f"result {view['result']}" not in record:
        failures.append("the record's result is not the game's")
    return moves


def study(driver, base, record_text, failures):
    """Opens a record with the file input, steps through it by buttons and arrow keys, asks for a suggestion."""
    path = os.path.join(SHOTS, "browser-test-game.txt")
    with open(path, "w") as f:
        f.write(record_text)
    driver.find_element(By.ID, "studyfile").send_keys(path)
    driver.find_element(By.ID, "open").click()
    WebDriverWait(driver, 20).until(lambda d: not d.find_element(By.ID, "studybar").get_attribute("class"))
    view = api(base, f"api/games/{game_id(driver)}")
    plies = view["study"]["plies"]
    steps = 0
    driver.find_element(By.ID, "first").click()
    for ply in range(0, min(plies, 8) + 1):
        WebDriverWait(driver, 10).until(lambda d: d.find_element(By.ID, "plylabel").text == f"move {ply} of {plies}")
        view = api(base, f"api/games/{game_id(driver)}")
        if view["study"]["ply"] != ply or len(view["log"]) != ply:
            failures.append(f"study: the page shows move {ply}, the engine {view['study']['ply']}")
        check_page(driver, view, failures)
        if ply % 2 == 0:
            driver.find_element(By.ID, "next").click()
        else:
            driver.find_element(By.TAG_NAME, "body").send_keys(Keys.ARROW_RIGHT)
        steps += 1
    driver.find_element(By.ID, "suggest").click()
    WebDriverWait(driver, 30).until(lambda d: "suggests" in d.find_element(By.ID, "hint").text)
    move = driver.find_element(By.ID, "hint").text.split()[-1]
    view = api(base, f"api/games/{game_id(driver)}")
    if move not in view["moves"]:
        failures.append(f"study: suggested {move}, not a legal move")
    if not driver.find_elements(By.CSS_SELECTOR, f'#board .hinted[data-cell="{move}"]'):
        failures.append("study: the suggested cell is not marked")
    if "Evaluation" not in driver.find_element(By.ID, "board").get_attribute("innerHTML"):
        failures.append("study: no evaluation chart")
    driver.save_screenshot(os.path.join(SHOTS, "serve-study.png"))
    os.remove(path)
    return steps


def watch(driver, base, failures):
    """Watches a 2-game match of 4 x 4 Reversi to its end: the page's lines are the engine's."""
    driver.get(base + "?rules=reversi&size=4")
    WebDriverWait(driver, 10).until(lambda d: game_id(d) is not None)
    first = game_id(driver)
    for id_, value in (("match-a", "greedy"), ("match-b", "random"), ("match-games", "2")):
        box = driver.find_element(By.ID, id_)
        box.clear()
        box.send_keys(value)
    driver.find_element(By.ID, "watch").click()
    WebDriverWait(driver, 60, poll_frequency=0.1).until(
        lambda d: game_id(d) not in (None, first) and "the match is over" in d.find_element(By.ID, "matchlog").text)
    view = api(base, f"api/games/{game_id(driver)}")
    shown = driver.find_element(By.ID, "matchlog").text
    for line in view["match"]["lines"] + view["match"]["summary"]:
        if line.strip() not in shown:
            failures.append(f"match: the page lacks the line {line!r}")
    if len(view["match"]["lines"]) != 2:
        failures.append(f"match: {len(view['match']['lines'])} games finished, not 2")
    check_page(driver, view, failures)
    return len(view["match"]["lines"])


def play_dots(driver, base, failures):
    driver.get(base + "?rules=dots&size=2x2")
    # the page names the seats by the rule set's sides; player 2 is set in the form
    WebDriverWait(driver, 10).until(lambda d: d.find_element(By.ID, "white-label").text == "Player 2"
                                    and game_id(d) is not None)
    first = game_id(driver)
    white = driver.find_element(By.ID, "white")
    white.clear()
    white.send_keys("dots_search")
    driver.find_element(By.ID, "start").click()
    WebDriverWait(driver, 10).until(lambda d: game_id(d) not in (None, first))
    view = settled(driver, base)
    if view["players"].get("2") != "dots_search":
        failures.append(f"dots: player 2 is {view['players']}")
    clicks = 0
    while not view["finished"]:
        edge = view["moves"][0]
        driver.find_element(By.CSS_SELECTOR, f'#board rect.hit[data-edge="{edge}"]').click()
        clicks += 1
        view = settled(driver, base)
        check_page(driver, view, failures)
    return clicks


def main():
    proc, base = start_server()
    failures = []
    driver = None
    try:
        driver = browser(1200, 900)
        moves = play_reversi(driver, base, failures)
        clicks = play_dots(driver, base, failures)
        steps = study(driver, base, play_reversi.record, failures)
        watched = watch(driver, base, failures)
        driver.quit()
        driver = browser(390, 844)  # a phone
        driver.get(base + "?rules=reversi&white=alphabeta:depth=2")
        settled(driver, base)
        driver.save_screenshot(os.path.join(SHOTS, "serve-phone.png"))
        if proc.poll() is not None:
            failures.append("the server stopped")
    finally:
        if driver:
            driver.quit()
        os.killpg(proc.pid, signal.SIGTERM)
    for f in failures:
        print("FAIL:", f)
    print(f"browser test: reversi 6 x 6 in {moves} human moves, dots 2 x 2 in {clicks} clicks, "
          f"a study stepped {steps} times, a match of {watched} games watched; "
          f"{len(failures)} failures; screenshots in {SHOTS}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
