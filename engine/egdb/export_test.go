package egdb

import "testing"

// BuiltTestDB builds the database the package's tests use (once per test
// binary) and returns its directory and its number of pieces, for the
// tests outside the package.
func BuiltTestDB(t testing.TB) (dir string, pieces int) {
	testDB(t)
	return testDBDir, testPieces()
}

// CheckData checks every file of db against its data checksum.
func CheckData(db *DB) []error {
	var errs []error
	for _, f := range db.files {
		if err := f.checkData(); err != nil {
			errs = append(errs, err)
		}
	}
	return errs
}
