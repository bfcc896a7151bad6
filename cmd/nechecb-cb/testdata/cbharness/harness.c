/*
 * harness: loads nechecb's CheckerBoard engine library (the Linux .so) with
 * dlopen and calls it the way CheckerBoard 1.77 does. The Go test
 * (cmd/nechecb-cb/harness_test.go) drives it through stdin and stdout, one
 * request a line, and judges the answers with the rules engine:
 *
 *   startup            CheckerBoard's calls when it loads an engine
 *   bad                bad arguments; each must come back cleanly
 *   move C T I M N     "set gamehist" (next line), then getmove with color C,
 *                      maxtime T, info I and moreinfo M on the board of the
 *                      line after; the N lines after that are the boards of
 *                      the N legal moves, written by the Go side from engine/
 *   playnow C T I D N  the same without gamehist; a second thread sets
 *                      *playnow D ms after the call and a third reads str
 *                      while the engine thinks
 *   quit
 *
 * Boards are 64 integers, board[x][y] in memory order (x major). As
 * CheckerBoard does for English, the harness ignores *move and takes the
 * engine's move to be the legal move whose board equals the returned board
 * byte for byte.
 */
#define _POSIX_C_SOURCE 200809L
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

struct coor {
	int x;
	int y;
};

struct CBmove {
	int jumps;
	int newpiece;
	int oldpiece;
	struct coor from, to;
	struct coor path[12];
	struct coor del[12];
	int delpiece[12];
};

_Static_assert(sizeof(struct CBmove) == 268, "struct CBmove is 268 bytes");

typedef int (*getmove_fn)(int board[8][8], int color, double maxtime, char str[1024], int *playnow, int info,
                          int moreinfo, struct CBmove *move);
typedef int (*command_fn)(const char *command, char reply[1024]);
typedef int (*name_fn)(char str[255]);

static getmove_fn getmove;
static command_fn enginecommand;
static name_fn enginename;

#define LINE 16384
#define MAXMOVES 256

static double now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* terminated reports whether buf has a NUL in its first n bytes. */
static int terminated(const char *buf, size_t n) { return memchr(buf, 0, n) != NULL; }

/* put writes s on one line, newlines escaped as "\n". */
static void put(const char *s)
{
	for (; *s; s++) {
		if (*s == '\n')
			fputs("\\n", stdout);
		else
			putchar(*s);
	}
}

/* command sends one enginecommand and prints "reply RC TEXT". The reply
 * buffer starts full of 'Z' with no NUL, so an unterminated reply shows. */
static int command(const char *text)
{
	char reply[1024];
	memset(reply, 'Z', sizeof reply);
	int rc = enginecommand(text, reply);
	if (!terminated(reply, sizeof reply)) {
		printf("reply %d <unterminated>\n", rc);
		return rc;
	}
	printf("reply %d ", rc);
	put(reply);
	putchar('\n');
	return rc;
}

static int read_line(char *buf)
{
	if (!fgets(buf, LINE, stdin))
		return 0;
	buf[strcspn(buf, "\n")] = 0;
	return 1;
}

static int read_board(int board[8][8])
{
	char buf[LINE];
	if (!read_line(buf))
		return 0;
	char *p = buf;
	for (int i = 0; i < 64; i++) {
		char *end;
		long v = strtol(p, &end, 10);
		if (end == p)
			return 0;
		(&board[0][0])[i] = (int)v;
		p = end;
	}
	return 1;
}

/* match returns the index of the successor equal to board, -1 if none. */
static int match(int board[8][8], int succ[][8][8], int n)
{
	for (int i = 0; i < n; i++)
		if (memcmp(board, succ[i], sizeof(int[8][8])) == 0)
			return i;
	return -1;
}

static int succ[MAXMOVES][8][8];

/* --- playnow: a GUI thread that presses "play now", and one that reads
 * the status line as CheckerBoard's timer does. --- */

struct watch {
	int *playnow;
	char *str;
	int delay_ms;
	double set_at;
	volatile int done;
	long reads, unterminated, thinking;
};

static void *press(void *arg)
{
	struct watch *w = arg;
	struct timespec d = {w->delay_ms / 1000, (long)(w->delay_ms % 1000) * 1000000L};
	nanosleep(&d, NULL);
	w->set_at = now_ms();
	__atomic_store_n(w->playnow, 1, __ATOMIC_SEQ_CST);
	return NULL;
}

static void *read_status(void *arg)
{
	struct watch *w = arg;
	char copy[1024];
	struct timespec d = {0, 500000L};
	while (!w->done) {
		memcpy(copy, w->str, sizeof copy);
		w->reads++;
		if (!terminated(copy, sizeof copy))
			w->unterminated++;
		else if (strstr(copy, "depth ") && strstr(copy, " pv "))
			w->thinking++;
		nanosleep(&d, NULL);
	}
	return NULL;
}

static int read_successors(int board[8][8], int n)
{
	if (n < 0 || n > MAXMOVES || !read_board(board))
		return 0;
	for (int i = 0; i < n; i++)
		if (!read_board(succ[i]))
			return 0;
	return 1;
}

static void do_move(const char *args)
{
	int color, info, moreinfo, n;
	double maxtime;
	char hist[LINE];
	int board[8][8], before[8][8];
	if (sscanf(args, "%d %lf %d %d %d", &color, &maxtime, &info, &moreinfo, &n) != 5 || !read_line(hist) ||
	    !read_successors(board, n)) {
		printf("error bad move request\n");
		return;
	}
	/* CheckerBoard sends the history before every getmove. */
	char reply[1024];
	enginecommand(hist, reply);
	memcpy(before, board, sizeof board);
	char str[1024] = "";
	int playnow = 0;
	struct CBmove move;
	double t0 = now_ms();
	int result = getmove(board, color, maxtime, str, &playnow, info, moreinfo, &move);
	double ms = now_ms() - t0;
	int idx = match(board, succ, n);
	if (idx < 0 && memcmp(board, before, sizeof board) == 0)
		idx = -2; /* the board was left as it was */
	printf("moved %d %d %.3f ", idx, result, ms);
	put(terminated(str, sizeof str) ? str : "<unterminated>");
	putchar('\n');
}

static void do_playnow(const char *args)
{
	int color, info, delay, n;
	double maxtime;
	int board[8][8];
	if (sscanf(args, "%d %lf %d %d %d", &color, &maxtime, &info, &delay, &n) != 5 || !read_successors(board, n)) {
		printf("error bad playnow request\n");
		return;
	}
	char str[1024];
	memset(str, 'A', sizeof str - 1);
	str[sizeof str - 1] = 0; /* a long, terminated old line */
	int playnow = 0;
	struct CBmove move;
	struct watch w = {&playnow, str, delay, 0, 0, 0, 0, 0};
	pthread_t presser, reader;
	double t0 = now_ms();
	pthread_create(&presser, NULL, press, &w);
	pthread_create(&reader, NULL, read_status, &w);
	int result = getmove(board, color, maxtime, str, &playnow, info, 0, &move);
	double back = now_ms();
	w.done = 1;
	pthread_join(presser, NULL);
	pthread_join(reader, NULL);
	printf("playnow %d %d %.3f %.3f %ld %ld %ld ", match(board, succ, n), result, back - t0, back - w.set_at, w.reads,
	       w.unterminated, w.thinking);
	put(terminated(str, sizeof str) ? str : "<unterminated>");
	putchar('\n');
}

/* --- bad arguments --- */

static int failures;

static void check(const char *name, int ok, const char *detail)
{
	printf("check %s %s", name, ok ? "ok" : "FAIL");
	if (detail && *detail) {
		putchar(' ');
		put(detail);
	}
	putchar('\n');
	if (!ok)
		failures++;
}

static void start_board(int b[8][8])
{
	memset(b, 0, sizeof(int[8][8]));
	for (int n = 1; n <= 32; n++) {
		int n0 = n - 1, y = n0 / 4, x = 2 * (3 - n0 % 4) + (y % 2);
		if (n <= 12)
			b[x][y] = 6; /* black man */
		else if (n >= 21)
			b[x][y] = 5; /* white man */
	}
}

/* refused calls getmove on a bad board and checks that it returns
 * CB_UNKNOWN (or want), leaves the board as it was and says why in str. */
static void refused(const char *name, int b[8][8], int color, int want)
{
	int before[8][8];
	memcpy(before, b, sizeof before);
	char str[1024] = "";
	int playnow = 0;
	struct CBmove move;
	int r = getmove(b, color, 0.05, str, &playnow, 0, 0, &move);
	int ok = r == want && memcmp(before, b, sizeof before) == 0 && terminated(str, sizeof str) && str[0] != 0;
	check(name, ok, terminated(str, sizeof str) ? str : "<unterminated>");
}

static void do_bad(void)
{
	int b[8][8];
	failures = 0;

	start_board(b);
	b[7][3] = 6; /* square 13: a thirteenth black man */
	refused("thirteen-men", b, 2, 3);

	start_board(b);
	b[7][7] = 6; /* square 29: a black man on its crowning row */
	refused("black-man-on-29", b, 2, 3);

	start_board(b);
	b[6][0] = 5; /* square 1: a white man on its crowning row */
	refused("white-man-on-1", b, 1, 3);

	start_board(b);
	refused("color-0", b, 0, 3);
	start_board(b);
	refused("color-3", b, 3, 3);

	start_board(b);
	b[3][3] = 7; /* square 15: no such piece code */
	refused("code-7", b, 2, 3);

	start_board(b);
	b[0][1] = 10; /* a light square */
	refused("light-square", b, 2, 3);

	memset(b, 0, sizeof b);
	b[7][7] = 5;  /* white man on 29 ... */
	b[6][6] = 10; /* ... blocked by a black king on 25 ... */
	b[5][5] = 6;  /* ... with a black man on 22 behind it: White cannot move */
	refused("no-legal-move", b, 1, 2);

	char str[1024] = "";
	int playnow = 0;
	struct CBmove move;
	start_board(b);
	int r = getmove(NULL, 2, 0.05, str, &playnow, 0, 0, &move);
	check("null-board", r == 3 && str[0] != 0, str);
	str[0] = 0;
	r = getmove(b, 2, 0.05, NULL, &playnow, 0, 0, &move);
	check("null-str", r == 3, "");
	r = getmove(b, 2, 0.05, str, NULL, 0, 0, &move);
	check("null-playnow", r == 3 && str[0] != 0, str);
	str[0] = 0;
	r = getmove(b, 2, 0.05, str, &playnow, 0, 0, NULL);
	check("null-move", r == 3 && str[0] != 0, str);
	int fresh[8][8];
	start_board(fresh);
	check("null-left-board", memcmp(b, fresh, sizeof b) == 0, "");

	char reply[1024];
	memset(reply, 'Z', sizeof reply);
	r = enginecommand(NULL, reply);
	check("null-command", r == 0 && terminated(reply, sizeof reply) && reply[0] != 0, reply);
	r = enginecommand("name", NULL);
	check("null-reply", r == 0, "");
	check("null-name", enginename(NULL) == 0, "");

	size_t big = 100000;
	char *longcmd = malloc(big + 1);
	memset(longcmd, 'a', big);
	longcmd[big] = 0;
	memset(reply, 'Z', sizeof reply);
	r = enginecommand(longcmd, reply);
	free(longcmd);
	check("long-command", r == 0 && terminated(reply, sizeof reply) && reply[0] != 0, reply);

	memset(reply, 'Z', sizeof reply);
	r = enginecommand("frobnicate", reply);
	check("unknown-command", r == 0 && strcmp(reply, "?") == 0, reply);

	const char *texts[] = {"help", "about", "get eval", "staticevaluation B:W21-32:B1-12"};
	for (size_t i = 0; i < sizeof texts / sizeof *texts; i++) {
		memset(reply, 'Z', sizeof reply);
		r = enginecommand(texts[i], reply);
		char name[64];
		snprintf(name, sizeof name, "reply-fits:%s", texts[i]);
		for (char *c = name; *c; c++)
			if (*c == ' ')
				*c = '_';
		check(name, r == 1 && terminated(reply, sizeof reply) && strlen(reply) <= 1023 && reply[0] != 0,
		      terminated(reply, sizeof reply) ? reply : "<unterminated>");
	}
	printf("bad-done %d\n", failures);
}

/* --- start-up, in CheckerBoard's order --- */

static void do_startup(void)
{
	char name[255];
	memset(name, 'Z', sizeof name);
	if (!command("name")) {
		/* an old host asks enginename when "name" is not understood */
		enginename(name);
	}
	memset(name, 'Z', sizeof name);
	int rc = enginename(name);
	printf("enginename %d %s\n", rc, terminated(name, sizeof name) ? name : "<unterminated>");
	command("get protocolversion");
	command("get gametype");
	command("get movelist B:W1:B");
	command("set hashsize 16");
	command("get book");
	printf("startup-done\n");
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: harness LIBRARY < requests\n");
		return 2;
	}
	void *lib = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
	if (!lib) {
		fprintf(stderr, "dlopen: %s\n", dlerror());
		return 1;
	}
	getmove = (getmove_fn)dlsym(lib, "getmove");
	enginecommand = (command_fn)dlsym(lib, "enginecommand");
	enginename = (name_fn)dlsym(lib, "enginename");
	if (!getmove || !enginecommand || !enginename) {
		fprintf(stderr, "missing exports: getmove %p enginecommand %p enginename %p\n", (void *)getmove,
		        (void *)enginecommand, (void *)enginename);
		return 1;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	char line[LINE];
	while (read_line(line)) {
		if (strcmp(line, "startup") == 0)
			do_startup();
		else if (strcmp(line, "bad") == 0)
			do_bad();
		else if (strncmp(line, "move ", 5) == 0)
			do_move(line + 5);
		else if (strncmp(line, "playnow ", 8) == 0)
			do_playnow(line + 8);
		else if (strcmp(line, "quit") == 0)
			break;
		else
			printf("error unknown request %s\n", line);
		fflush(stdout);
	}
	return 0;
}
