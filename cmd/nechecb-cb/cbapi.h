/*
 * The CheckerBoard engine API (protocol version 2) as nechecb exports it:
 * the structures and the three functions CheckerBoard looks up by name.
 */
#ifndef NECHECB_CBAPI_H
#define NECHECB_CBAPI_H

/* WINAPI is __stdcall on 32-bit Windows and nothing elsewhere. */
#if defined(_WIN32) && !defined(_WIN64)
#define CB_WINAPI __stdcall
#else
#define CB_WINAPI
#endif

/* The exports are visible from the library under their plain names. On
 * 32-bit Windows a __stdcall function is exported as "getmove@36", so there
 * shim.c names the exports itself (CheckerBoard looks up "getmove"). */
#if defined(_WIN32) && !defined(_WIN64)
#define CB_EXPORT
#elif defined(_WIN32)
#define CB_EXPORT __declspec(dllexport)
#else
#define CB_EXPORT __attribute__((visibility("default")))
#endif

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

_Static_assert(sizeof(struct coor) == 8, "struct coor must be two 4-byte ints");
_Static_assert(sizeof(struct CBmove) == 268, "struct CBmove must be 268 bytes, as CheckerBoard has it");

CB_EXPORT int CB_WINAPI getmove(int board[8][8], int color, double maxtime, char str[1024], int *playnow,
                                int info, int moreinfo, struct CBmove *move);
CB_EXPORT int CB_WINAPI enginecommand(const char *command, char reply[1024]);
CB_EXPORT int CB_WINAPI enginename(char str[255]);

#endif
