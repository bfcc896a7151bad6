package main

/*
#include "cbapi.h"
*/
import "C"

import (
	"fmt"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/nechecb/nechecb/eval/all"
	"github.com/nechecb/nechecb/internal/cbapi"
)

// The host's struct CBmove and cbapi.Move have the same 268 bytes; these
// two lines do not compile otherwise.
var (
	_ [unsafe.Sizeof(C.struct_CBmove{}) - 268]byte
	_ [268 - unsafe.Sizeof(C.struct_CBmove{})]byte
	_ [unsafe.Sizeof(cbapi.Move{}) - 268]byte
	_ [268 - unsafe.Sizeof(cbapi.Move{})]byte
	_ [unsafe.Sizeof(cbapi.Board{}) - 256]byte
	_ [256 - unsafe.Sizeof(cbapi.Board{})]byte
)

// plugin is the one Plugin of the library, made on first use.
var plugin = sync.OnceValues(func() (*cbapi.Plugin, error) {
	return cbapi.New(cbapi.Config{Name: "nechecb", Version: version, Eval: all.DefaultSpec})
})

// nechecb_getmove is getmove behind the C shim (board is &board[0][0]).
//
//export nechecb_getmove
func nechecb_getmove(board *C.int, color C.int, maxtime C.double, str *C.char, playnow *C.int,
	info, moreinfo C.int, move *C.struct_CBmove) (result C.int) {
	result = cbapi.ResultUnknown
	if str == nil {
		return result // no place for a message
	}
	status := hostBytes(unsafe.Pointer(str), textSize)
	status[textSize-1] = 0
	defer func() {
		if r := recover(); r != nil {
			putText(status, fmt.Sprint("nechecb: internal error: ", r))
			result = cbapi.ResultUnknown
		}
	}()
	switch {
	case board == nil:
		putText(status, "nechecb: getmove was given a NULL board")
		return result
	case playnow == nil:
		putText(status, "nechecb: getmove was given a NULL playnow")
		return result
	case move == nil:
		putText(status, "nechecb: getmove was given a NULL move")
		return result
	}
	p, err := plugin()
	if err != nil {
		putText(status, "nechecb: "+err.Error())
		return result
	}
	hostBoard := (*cbapi.Board)(unsafe.Pointer(board))
	flag := (*int32)(unsafe.Pointer(playnow))
	r := p.GetMove(cbapi.Request{
		Board: *hostBoard, Color: int(color), MaxTime: float64(maxtime), Info: int(info), MoreInfo: int(moreinfo),
		PlayNow: func() bool { return atomic.LoadInt32(flag) != 0 },
		Status:  func(s string) { putText(status, s) },
	})
	if r.Moved {
		*hostBoard = r.Board
		*(*cbapi.Move)(unsafe.Pointer(move)) = r.Move
	}
	return C.int(r.Result)
}

// nechecb_enginecommand is enginecommand behind the C shim.
//
//export nechecb_enginecommand
func nechecb_enginecommand(command *C.char, reply *C.char) (handled C.int) {
	if reply == nil {
		return 0
	}
	out := hostBytes(unsafe.Pointer(reply), textSize)
	defer func() {
		if r := recover(); r != nil {
			putText(out, fmt.Sprint("nechecb: internal error: ", r))
			handled = 0
		}
	}()
	if command == nil {
		putText(out, "nechecb: enginecommand was given a NULL command")
		return 0
	}
	text, ok := cText(unsafe.Pointer(command), maxCommand)
	if !ok {
		putText(out, fmt.Sprintf("nechecb: command refused: no end within %d bytes", maxCommand))
		return 0
	}
	p, err := plugin()
	if err != nil {
		putText(out, "nechecb: "+err.Error())
		return 0
	}
	answer, known := p.Command(text)
	putText(out, answer)
	if known {
		return 1
	}
	return 0
}

// nechecb_enginename is enginename behind the C shim.
//
//export nechecb_enginename
func nechecb_enginename(str *C.char) (ok C.int) {
	if str == nil {
		return 0
	}
	out := hostBytes(unsafe.Pointer(str), nameSize)
	defer func() {
		if r := recover(); r != nil {
			putText(out, "nechecb")
		}
	}()
	putText(out, "nechecb "+version)
	return 1
}
