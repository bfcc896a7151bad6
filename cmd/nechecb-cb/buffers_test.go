package main

import (
	"strings"
	"testing"
	"unsafe"
)

func TestPutTextCutsAndTerminates(t *testing.T) {
	buf := []byte(strings.Repeat("Z", 8))
	putText(buf, "abc")
	if string(buf) != "abc\x00ZZZZ" {
		t.Errorf("short text: %q", buf)
	}
	putText(buf, "0123456789")
	if string(buf) != "0123456\x00" {
		t.Errorf("long text: %q", buf)
	}
}

func TestCTextStopsAtTheLimit(t *testing.T) {
	buf := []byte("set hashsize 64\x00rest")
	if s, ok := cText(unsafe.Pointer(&buf[0]), len(buf)); !ok || s != "set hashsize 64" {
		t.Errorf("terminated: %q, %v", s, ok)
	}
	if s, ok := cText(unsafe.Pointer(&buf[0]), 15); ok {
		t.Errorf("no NUL within the limit, got %q", s)
	}
	if s, ok := cText(unsafe.Pointer(&buf[0]), 16); !ok || s != "set hashsize 64" {
		t.Errorf("NUL at the limit's last byte: %q, %v", s, ok)
	}
}
