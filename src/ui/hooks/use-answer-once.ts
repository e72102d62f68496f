/** A dialog's answer, given once: a second key press (or a repeat) after the first answer is ignored. */
import { useRef } from 'react';

export function useAnswerOnce<T>(onAnswer: (a: T) => void): (a: T) => void {
  const answered = useRef(false);
  return (a: T) => {
    if (answered.current) return;
    answered.current = true;
    onAnswer(a);
  };
}
