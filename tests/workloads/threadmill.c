// SPDX-License-Identifier: GPL-2.0
/*
 * threadmill SECONDS PERIOD_US: for SECONDS, a new thread every PERIOD_US microseconds,
 * each sleeping 200 us five times and ending (detached). A tracer that
 * looks at /proc once and starts tracing some milliseconds later finds threads it never
 * saw begin: the window a recording's pid filter must still name them for.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

/* worker - five short sleeps: five wakeups, each a run-queue latency */
static void *worker(void *arg)
{
	int i;

	(void)arg;
	for (i = 0; i < 5; i++)
		usleep(200);
	return NULL;
}

/* now_s - CLOCK_MONOTONIC in seconds */
static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* main - start, pace and join the threads until the time is up */
int main(int argc, char **argv)
{
	double end;
	long period;
	pthread_t t;

	if (argc != 3) {
		fprintf(stderr, "usage: threadmill SECONDS PERIOD_US\n");
		return 2;
	}
	end = now_s() + atof(argv[1]);
	period = atol(argv[2]);
	while (now_s() < end) {
		if (pthread_create(&t, NULL, worker, NULL)) {
			perror("pthread_create");
			return 1;
		}
		pthread_detach(t);
		usleep(period);
	}
	usleep(10000);	/* the last ones end */
	return 0;
}
