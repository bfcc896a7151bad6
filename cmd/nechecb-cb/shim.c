//go:build cgo

/*
 * The exported functions, with CheckerBoard's exact signatures and calling
 * convention, hand over to the Go functions of exports.go. cgo exports Go
 * functions with the C default convention only; on 32-bit Windows the API
 * wants __stdcall, so these few lines of C stand between.
 */
#include "cbapi.h"
#include "_cgo_export.h"

#if defined(_WIN32)
#include <windows.h>

/* A Go library cannot be unloaded: the runtime's threads go on running in
 * it (golang/go#11100), so a FreeLibrary would crash the host a little
 * later. CheckerBoard frees an engine's DLL when the user selects another
 * engine. Pinning the DLL, when it is loaded and again on every call in
 * case the first did not take, makes FreeLibrary leave it in place until
 * the process ends. */
static volatile LONG pinned;

static void pin(void)
{
	HMODULE self;
	if (pinned)
		return;
	if (GetModuleHandleExA(GET_MODULE_HANDLE_EX_FLAG_FROM_ADDRESS | GET_MODULE_HANDLE_EX_FLAG_PIN,
	                       (LPCSTR)(void *)&pin, &self))
		pinned = 1;
}

__attribute__((constructor)) static void pin_on_load(void) { pin(); }
#else
static void pin(void) {}
#endif

#if defined(_WIN32) && !defined(_WIN64)
/* Export the __stdcall functions undecorated: the linker directive
 * "-export:NAME=SYMBOL" names the export NAME (the number after '@' is the
 * size of the arguments in bytes). This does what -Wl,--kill-at does, which
 * a #cgo directive may not pass. */
__asm__(".section .drectve\n\t"
        ".ascii \" -export:getmove=getmove@36\"\n\t"
        ".ascii \" -export:enginecommand=enginecommand@8\"\n\t"
        ".ascii \" -export:enginename=enginename@4\"\n\t"
        ".text");
#endif

CB_EXPORT int CB_WINAPI getmove(int board[8][8], int color, double maxtime, char str[1024], int *playnow,
                                int info, int moreinfo, struct CBmove *move)
{
	pin();
	return nechecb_getmove(board == 0 ? 0 : &board[0][0], color, maxtime, str, playnow, info, moreinfo, move);
}

CB_EXPORT int CB_WINAPI enginecommand(const char *command, char reply[1024])
{
	pin();
	return nechecb_enginecommand((char *)command, reply);
}

CB_EXPORT int CB_WINAPI enginename(char str[255])
{
	pin();
	return nechecb_enginename(str);
}
