//go:build linux && cgo

package audio

// #cgo LDFLAGS: -ldl
// #include <dlfcn.h>
// #include <stdarg.h>
// #include <stdio.h>
// #include <string.h>
//
// // libasound's handler type, declared here so the build needs no ALSA
// // headers: the library is found at run time, as SDL finds it.
// typedef void (*alsa_handler)(const char *file, int line, const char *function, int err, const char *fmt, ...);
// typedef int (*alsa_set_handler)(alsa_handler);
//
// static alsa_set_handler fixstep_alsa_set;
// static char fixstep_alsa_first[256];
// static int fixstep_alsa_count, fixstep_alsa_done;
//
// // fixstep_alsa_quiet prints nothing. It keeps the first message of
// // snd_pcm_open, which says why the device did not open ("Unknown PCM
// // default"); the others are the steps that led there. It can run on SDL's
// // threads, so only the first such message writes the buffer.
// static void fixstep_alsa_quiet(const char *file, int line, const char *function, int err, const char *fmt, ...) {
// 	if (function == NULL || strncmp(function, "snd_pcm_open", 12) != 0) {
// 		return;
// 	}
// 	if (__atomic_fetch_add(&fixstep_alsa_count, 1, __ATOMIC_SEQ_CST) != 0) {
// 		return;
// 	}
// 	va_list ap;
// 	va_start(ap, fmt);
// 	vsnprintf(fixstep_alsa_first, sizeof fixstep_alsa_first, fmt, ap);
// 	va_end(ap);
// 	__atomic_store_n(&fixstep_alsa_done, 1, __ATOMIC_SEQ_CST);
// }
//
// // fixstep_alsa_silence installs the quiet handler (on != 0) or libasound's
// // default one, which prints to stderr. It returns 0 when libasound is not
// // on this system: then there is nothing to silence.
// static int fixstep_alsa_silence(int on) {
// 	if (fixstep_alsa_set == NULL) {
// 		// The same soname SDL loads, so both get the one copy of the
// 		// library and its one handler. The handle is never closed.
// 		void *lib = dlopen("libasound.so.2", RTLD_NOW | RTLD_LOCAL);
// 		if (lib == NULL) {
// 			return 0;
// 		}
// 		fixstep_alsa_set = (alsa_set_handler)dlsym(lib, "snd_lib_error_set_handler");
// 		if (fixstep_alsa_set == NULL) {
// 			return 0;
// 		}
// 	}
// 	if (on) {
// 		fixstep_alsa_first[0] = 0;
// 		__atomic_store_n(&fixstep_alsa_done, 0, __ATOMIC_SEQ_CST);
// 		__atomic_store_n(&fixstep_alsa_count, 0, __ATOMIC_SEQ_CST);
// 		fixstep_alsa_set(fixstep_alsa_quiet);
// 	} else {
// 		fixstep_alsa_set(NULL);
// 	}
// 	return 1;
// }
//
// static const char *fixstep_alsa_said(void) {
// 	return __atomic_load_n(&fixstep_alsa_done, __ATOMIC_SEQ_CST) ? fixstep_alsa_first : "";
// }
import "C"

// quietALSA runs probe, SDL's opening of the audio device, with libasound's
// error messages kept from stderr. With no sound card SDL's ALSA driver
// opens libasound's "default" device, and libasound's default error handler
// prints eight lines from "ALSA lib confmisc.c:855:(parse_card) cannot find
// card '0'" to "ALSA lib pcm.c:2666:(snd_pcm_open_noupdate) Unknown PCM
// default": noise before every run of a game on a machine without sound,
// although Open reports the failure as an error. The quiet handler prints
// nothing and keeps the last line, the verdict of snd_pcm_open, which it
// returns as said for that error. libasound's default handler is back when
// probe returns, so a live device's later messages print as before.
//
// libasound is loaded by name, as SDL loads it, rather than linked: the
// build needs no ALSA headers, and a system without it has nothing to
// silence.
func quietALSA(probe func() error) (said string, err error) {
	if C.fixstep_alsa_silence(1) == 0 {
		return "", probe()
	}
	defer C.fixstep_alsa_silence(0)
	err = probe()
	return C.GoString(C.fixstep_alsa_said()), err
}
