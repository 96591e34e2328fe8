/* sys/ioctl.h: device control. The simulator's files are plain host files
 * and its standard streams no terminals the program can control: ioctl
 * fails with ENOTTY for every request (programs asking TIOCGWINSZ fall back
 * to their default width). */
#ifndef _SYS_IOCTL_H
#define _SYS_IOCTL_H

#define TIOCGWINSZ 0x5413
#define TIOCSWINSZ 0x5414
#define FIONREAD 0x541B
#define FIONBIO 0x5421

struct winsize {
    unsigned short ws_row;
    unsigned short ws_col;
    unsigned short ws_xpixel;
    unsigned short ws_ypixel;
};

int ioctl(int, unsigned long, ...);

#endif
