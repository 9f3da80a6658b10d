/*
 * bcryptprimitives.c - a stand-in for Windows' bcryptprimitives.dll, for
 * running Go programs under Debian 12's wine 8.0 only. It is never shipped.
 *
 * Go's Windows runtime (1.22 on) loads bcryptprimitives.dll from system32 at
 * start-up and takes ProcessPrng from it for all its random numbers
 * (runtime/os_windows.go); without it the runtime throws "bcryptprimitives.dll
 * not found" before main. Wine gained that DLL after 8.0. This one exports
 * ProcessPrng, documented as always returning TRUE, and fills the buffer
 * from the system's preferred RNG through bcrypt.dll, which wine 8.0 has.
 *
 * Built with mingw-w64 by build/mk/platforms.mk and copied into the test wine
 * prefix's system32 (build/out/windows/prefix), where Go's
 * LoadLibraryExW(..., LOAD_LIBRARY_SEARCH_SYSTEM32) finds it.
 */
#include <windows.h>
#include <bcrypt.h>

__declspec(dllexport) BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T len) {
	while (len > 0) {
		ULONG n = len > 0x40000000 ? 0x40000000 : (ULONG)len;
		if (BCryptGenRandom(NULL, data, n, BCRYPT_USE_SYSTEM_PREFERRED_RNG) != 0)
			FatalAppExitA(0, "bcryptprimitives stand-in: BCryptGenRandom failed");
		data += n;
		len -= n;
	}
	return TRUE;
}

BOOL WINAPI DllMain(HINSTANCE inst, DWORD reason, LPVOID reserved) {
	(void)inst;
	(void)reason;
	(void)reserved;
	return TRUE;
}
