package gui

import (
	"net/http"
	"strings"
	"testing"

	"github.com/nechecb/nechecb/books"
	"github.com/nechecb/nechecb/engine"
	"github.com/nechecb/nechecb/engine/pdn"
)

func TestTokenRequired(t *testing.T) {
	s := newTestServer(t)
	for _, path := range []string{"/", "/api/state", "/events", "/assets/app.js", "/api/pdn"} {
		if status, _ := s.request("GET", path, "", false, nil); status != http.StatusForbidden {
			t.Errorf("GET %s without the token: status %d, want 403", path, status)
		}
		if status, _ := s.request("GET", path+"?token=0123456789abcdef0123456789abcdef", "", false, nil); status != http.StatusForbidden {
			t.Errorf("GET %s with a wrong token: status %d, want 403", path, status)
		}
	}
	if status, _ := s.request("POST", "/api/play", `{"moves":["11-15"]}`, false, nil); status != http.StatusForbidden {
		t.Errorf("POST /api/play without the token: status %d, want 403", status)
	}
	if st := s.state(); len(st.Moves) != 0 {
		t.Errorf("a refused move was played: %v", st.Moves)
	}

	// The token in the query sets the cookie, and the cookie alone is
	// enough.
	res, err := s.ts.Client().Get(s.ts.URL + "/?token=" + s.srv.Token())
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	var cookie *http.Cookie
	for _, c := range res.Cookies() {
		if c.Name == s.srv.cookie {
			cookie = c
		}
	}
	if res.StatusCode != http.StatusOK || cookie == nil || !cookie.HttpOnly || cookie.SameSite != http.SameSiteStrictMode || cookie.Value != s.srv.Token() {
		t.Fatalf("page with the token: status %d, cookie %+v; want 200 and an HttpOnly SameSite=Strict cookie with the token", res.StatusCode, cookie)
	}
	req, _ := http.NewRequest("GET", s.ts.URL+"/api/state", nil)
	req.AddCookie(cookie)
	res, err = s.ts.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusOK {
		t.Errorf("GET /api/state with the cookie: status %d, want 200", res.StatusCode)
	}
}

func TestHostAndOriginChecked(t *testing.T) {
	s := newTestServer(t)
	port := s.ts.URL[strings.LastIndex(s.ts.URL, ":")+1:]
	cases := []struct {
		header http.Header
		want   int
	}{
		{http.Header{"Host": {"evil.example:" + port}}, http.StatusForbidden},
		{http.Header{"Host": {"127.0.0.1:1"}}, http.StatusForbidden},
		{http.Header{"Host": {"localhost:" + port}}, http.StatusOK},
		{http.Header{"Origin": {"http://evil.example"}}, http.StatusForbidden},
		{http.Header{"Origin": {"http://127.0.0.1:" + port + ".evil.example"}}, http.StatusForbidden},
		{http.Header{"Origin": {"null"}}, http.StatusForbidden},
		{http.Header{"Origin": {s.ts.URL}}, http.StatusOK},
	}
	for _, c := range cases {
		if status, body := s.request("GET", "/api/state", "", true, c.header); status != c.want {
			t.Errorf("GET /api/state with %v: status %d (%q), want %d", c.header, status, body, c.want)
		}
	}
	if status, _ := s.request("GET", "/events", "", true, http.Header{"Origin": {"http://evil.example"}}); status != http.StatusForbidden {
		t.Errorf("event stream from another origin: status %d, want 403", status)
	}
}

func TestBodyCaps(t *testing.T) {
	s := newTestServer(t)
	s.humanOnly()
	big := `{"moves":["11-15"],"pad":"` + strings.Repeat("x", maxBodySize) + `"}`
	status, body := s.request("POST", "/api/play", big, true, nil)
	if status != http.StatusRequestEntityTooLarge || !strings.Contains(body, "over 64 KB") {
		t.Errorf("a 64 KB move request: %d %q, want 413 saying it is over 64 KB", status, body)
	}
	// A PDN upload may be larger, up to 1 MB.
	game := "[Event \"big\"]\n{" + strings.Repeat("comment ", 100_000/8) + "}\n1. 11-15 22-18 *\n"
	if status, body := s.request("POST", "/api/pdn", game, true, nil); status != http.StatusOK {
		t.Errorf("a 100 KB PDN upload: %d %q, want 200", status, body)
	}
	huge := strings.Repeat(game, maxPDNBody/len(game)+1)
	if status, body := s.request("POST", "/api/pdn", huge, true, nil); status != http.StatusRequestEntityTooLarge || !strings.Contains(body, "over 1024 KB") {
		t.Errorf("a PDN upload over 1 MB: %d %q, want 413", status, body)
	}
}

func TestBadInputLeavesTheGame(t *testing.T) {
	s := newTestServer(t)
	s.humanOnly()
	before := s.mustPost("/api/play", playRequest{Moves: []string{"11-15", "22-18"}})
	cases := []struct {
		path, body, want string
	}{
		{"/api/play", `{"moves":["12-16x"]}`, "move 1"},
		{"/api/play", `{"moves":["15x22","18-14"]}`, "move 2"},
		{"/api/play", `{"moves":[]}`, "no move given"},
		{"/api/play", `{"moves":`, "bad request body"},
		{"/api/play", `{"move":"9-14"}`, "unknown field"},
		{"/api/play", `{"moves":["9-14"]} {}`, "more than one JSON value"},
		{"/api/new", `{"fen":"B:W21,22:B1,40"}`, "FEN"},
		{"/api/new", `{"ballot":"no such ballot"}`, "no 2- or 3-move ballot"},
		{"/api/goto", `{"ply":3}`, "outside the game's 0..2"},
		{"/api/engine", `{"level":{"kind":"depth","depth":0}}`, "level depth 0"},
		{"/api/engine", `{"level":{"kind":"fast"}}`, "level kind"},
		{"/api/pdn", "1. 11-17 22-18 *\n", "no game could be read"},
		{"/api/pdn", "", "no game found"},
		{"/api/pdn/game", `{"index":0}`, "no PDN collection"},
	}
	for _, c := range cases {
		status, body := s.request("POST", c.path, c.body, true, nil)
		if status != http.StatusBadRequest || !strings.Contains(body, c.want) {
			t.Errorf("POST %s %q: %d %q, want 400 mentioning %q", c.path, c.body, status, body, c.want)
		}
		after := s.state()
		if after.FEN != before.FEN || len(after.Moves) != 2 || after.Cursor != 2 {
			t.Fatalf("POST %s %q changed the game: %s, %d moves, cursor %d", c.path, c.body, after.FEN, len(after.Moves), after.Cursor)
		}
	}
	if status, _ := s.request("POST", "/api/movenow", "", true, nil); status != http.StatusConflict {
		t.Errorf("move now with no search: status %d, want 409", status)
	}
}

func TestOptionsComeFromTheSession(t *testing.T) {
	s := newTestServer(t)
	var a optionsAnswer
	status, body := s.request("GET", "/api/options", "", true, nil)
	s.decode(status, body, &a)
	var want []string
	for _, o := range s.srv.sess.Options() {
		if !o.Hidden {
			want = append(want, o.Name)
		}
	}
	var got []string
	for _, o := range a.Options {
		got = append(got, o.Name)
	}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Fatalf("options %v, want the session's announced options %v", got, want)
	}
	if status, msg := s.post("/api/options", optionRequest{Name: "MultiPV", Value: "3"}, &a); status != http.StatusOK {
		t.Fatalf("set MultiPV 3: %d %s", status, msg)
	}
	if v, _ := s.srv.sess.Get("MultiPV"); v != "3" {
		t.Errorf("MultiPV is %q after setting 3", v)
	}
	for _, c := range []optionRequest{{"MultiPV", "0"}, {"Hash", "lots"}, {"NoSuchOption", "1"}, {"Eval", "neche:/no/such/file.txt"}} {
		old, _ := s.srv.sess.Get(c.Name)
		status, msg := s.post("/api/options", c, nil)
		if status != http.StatusBadRequest || msg == "" {
			t.Errorf("set %s %q: %d %q, want 400 with a message", c.Name, c.Value, status, msg)
		}
		if now, _ := s.srv.sess.Get(c.Name); now != old {
			t.Errorf("a refused %s %q changed the value from %q to %q", c.Name, c.Value, old, now)
		}
	}
}

// TestWholeGame plays a game through the API, the engine playing neither
// side, always the first legal move, until the rules end it; the exported
// PDN reads back as the same game.
func TestWholeGame(t *testing.T) {
	s := newTestServer(t)
	s.humanOnly()
	st := s.state()
	for !st.Result.Over {
		if len(st.Moves) > 400 {
			t.Fatal("the game did not end in 400 plies")
		}
		st = s.mustPost("/api/play", playRequest{Moves: []string{st.Legal[0].Full}})
	}
	if st.Result.Reason == "" || st.Result.PDN == "*" {
		t.Fatalf("the game ended with result %+v: want a reason and a result", st.Result)
	}
	if status, msg := s.post("/api/play", playRequest{Moves: []string{"1-5"}}, nil); status != http.StatusBadRequest || !strings.Contains(msg, "over") {
		t.Errorf("a move after the end: %d %q, want 400 saying the game is over", status, msg)
	}
	status, text := s.request("GET", "/api/pdn", "", true, nil)
	if status != http.StatusOK {
		t.Fatalf("export: %d %s", status, text)
	}
	games, err := pdn.Read(strings.NewReader(text), "export")
	if err != nil || len(games) != 1 {
		t.Fatalf("the export does not read back: %v\n%s", err, text)
	}
	if got := games[0].Record.Moves(); len(got) != len(st.Moves) || games[0].Result() != st.Result.PDN {
		t.Fatalf("export has %d moves, result %s; the game %d, %s", len(got), games[0].Result(), len(st.Moves), st.Result.PDN)
	}
	for i, m := range games[0].Record.Moves() {
		if m.String() != st.Moves[i].Full {
			t.Fatalf("export move %d is %s, the game's %s", i+1, m, st.Moves[i].Full)
		}
	}
}

func TestEngineAnswersAndTakeBack(t *testing.T) {
	s := newTestServer(t)
	s.mustPost("/api/engine", engineRequest{White: true, Level: level{Kind: "depth", Depth: 4}})
	s.mustPost("/api/play", playRequest{Moves: []string{"b6a5"}})
	st := s.waitFor("the engine's answer", func(v stateView) bool { return len(v.Moves) == 2 && v.Searching == "" })
	if st.Side != "black" || st.Last == nil || st.Last.Side != "white" {
		t.Fatalf("after the engine's answer: side %s, last %+v", st.Side, st.Last)
	}
	if len(st.Scores) == 0 {
		t.Error("the engine's search left no point on the score graph")
	}
	st = s.mustPost("/api/undo", struct{}{})
	if len(st.Moves) != 0 || st.Cursor != 0 {
		t.Fatalf("take back left %d moves, cursor %d; want both moves taken back", len(st.Moves), st.Cursor)
	}
	if status, msg := s.post("/api/undo", struct{}{}, nil); status != http.StatusBadRequest || !strings.Contains(msg, "no move") {
		t.Errorf("take back at the start: %d %q", status, msg)
	}
	// The engine thinks over its move for a long time; move now makes it
	// play at once.
	s.mustPost("/api/engine", engineRequest{Black: true, Level: level{Kind: "movetime", MoveTimeMs: 600_000}})
	s.waitFor("the engine to think", func(v stateView) bool { return v.Searching == "play" })
	var ok map[string]bool
	if status, msg := s.post("/api/movenow", struct{}{}, &ok); status != http.StatusOK {
		t.Fatalf("move now: %d %s", status, msg)
	}
	s.waitFor("the engine's move after move now", func(v stateView) bool { return len(v.Moves) == 1 && v.Searching == "" })
}

func TestNavigationAndVariation(t *testing.T) {
	s := newTestServer(t)
	s.humanOnly()
	s.mustPost("/api/play", playRequest{Moves: []string{"11-15", "23-19", "8-11"}})
	st := s.mustPost("/api/goto", gotoRequest{Ply: 1})
	if st.Cursor != 1 || len(st.Moves) != 3 || st.Side != "white" {
		t.Fatalf("goto 1: cursor %d, %d moves, %s to move", st.Cursor, len(st.Moves), st.Side)
	}
	// The game's own next move goes forward through it.
	if st = s.mustPost("/api/play", playRequest{Moves: []string{"23-19"}}); st.Cursor != 2 || len(st.Moves) != 3 {
		t.Fatalf("the game's next move: cursor %d, %d moves; want 2, 3", st.Cursor, len(st.Moves))
	}
	// Another move starts a side line, which becomes the line shown
	// (tree_test.go tests the tree).
	if st = s.mustPost("/api/play", playRequest{Moves: []string{"9-14"}}); st.Cursor != 3 || len(st.Moves) != 3 || st.Moves[2].Text != "9-14" {
		t.Fatalf("a new move mid-game: cursor %d, moves %v", st.Cursor, st.Moves)
	}
}

func TestPositionsFromFENBallotAndPDN(t *testing.T) {
	s := newTestServer(t)
	s.humanOnly()
	st := s.mustPost("/api/new", newRequest{FEN: "W:W18,K30:B14,5"})
	if st.FEN != "W:W18,K30:B5,14" || st.Side != "white" || st.Pieces[30] != "W" {
		t.Fatalf("FEN: %s, %s to move, square 30 %q", st.FEN, st.Side, st.Pieces[30])
	}
	b := books.ThreeMove()[0]
	st = s.mustPost("/api/new", newRequest{Ballot: b.Name})
	if len(st.Moves) != len(b.Moves) || st.FEN != mustFEN(t, b.FEN) {
		t.Fatalf("ballot %s: %d moves, %s; want %d, %s", b.Name, len(st.Moves), st.FEN, len(b.Moves), b.FEN)
	}
	text := "[Event \"bad\"]\n1. 11-17 *\n\n[Event \"good\"]\n[Black \"A\"]\n[White \"B\"]\n1. 11-15 23-19 2. 8-11 22-17 1-0\n"
	status, body := s.request("POST", "/api/pdn", text, true, nil)
	var imp struct {
		stateView
		Skipped []string `json:"skipped"`
	}
	s.decode(status, body, &imp)
	if status != http.StatusOK || len(imp.Games) != 1 || len(imp.Skipped) != 1 || !strings.Contains(imp.Skipped[0], "game 1") {
		t.Fatalf("import: %d, games %v, skipped %v; want the second game read and the first named as skipped", status, imp.Games, imp.Skipped)
	}
	if imp.Cursor != 0 || len(imp.Moves) != 4 || imp.Engine != [2]bool{} {
		t.Fatalf("import shows cursor %d of %d moves, engine %v; want the start of 4 moves, the engine off", imp.Cursor, len(imp.Moves), imp.Engine)
	}
	_, out := s.request("GET", "/api/pdn", "", true, nil)
	if !strings.Contains(out, `[Black "A"]`) || !strings.Contains(out, "1-0") {
		t.Errorf("export of the imported game lost its tags or result:\n%s", out)
	}
}

func mustFEN(t *testing.T, fen string) string {
	p, err := engine.ParseFEN(fen)
	if err != nil {
		t.Fatal(err)
	}
	return p.FEN()
}

// TestDatabaseMarks checks the marks of the built-in database on a
// 3-piece ending: every legal move has one, and the position's value is
// the best of them.
func TestDatabaseMarks(t *testing.T) {
	s := newTestServerDB(t, "")
	s.humanOnly()
	st := s.mustPost("/api/new", newRequest{FEN: "W:WK27,K32:BK3"})
	if st.DBPieces == 0 || st.DB == "" {
		t.Fatalf("database %d pieces, value %q; want the built-in one's verdict", st.DBPieces, st.DB)
	}
	best := "loss"
	for _, m := range st.Legal {
		switch m.DB {
		case "win":
			best = "win"
		case "draw":
			if best == "loss" {
				best = "draw"
			}
		case "loss":
		default:
			t.Fatalf("move %s has no database mark", m.Text)
		}
	}
	if best != st.DB {
		t.Errorf("the position is a %s, but its best move is a %s", st.DB, best)
	}
}
