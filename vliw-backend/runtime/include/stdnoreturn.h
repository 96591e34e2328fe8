/* stdnoreturn.h: the noreturn macro (C11 7.23). */
#ifndef _STDNORETURN_H
#define _STDNORETURN_H
#define noreturn _Noreturn
#endif
