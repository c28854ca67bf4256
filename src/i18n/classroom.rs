//! The classroom's words (`routelab classroom`): the teacher's bar and the students' bar.

use super::phrases;

phrases! {
    /// The teacher's bar, before the room's code.
    TEACHER_ROOM: "You are teaching room {code}", "你正在主持课堂 {code}";
    /// Before the students' link.
    STUDENTS_OPEN: "Students open:", "学生打开：";
    QR_LABEL: "QR code of the students' link", "学生链接的二维码";
    BIGGER_QR: "Show the QR code larger", "放大二维码";
    SMALLER_QR: "Make the QR code smaller", "缩小二维码";
    ROSTER: "{following} following · {exploring} exploring · {disconnected} disconnected", "{following} 人跟随 · {exploring} 人自行探索 · {disconnected} 人已断开";
    /// The tally of the current question, before its bars.
    ANSWERS: "Answers ({n})", "回答（{n} 人）";
    REVEAL: "Reveal the answer to everyone", "向全班公布答案";
    REVEALED: "Answer revealed", "答案已公布";
    NO_QUESTION: "Open a lesson: when a step asks a question, the class answers here.", "打开一节课：当某一步提出问题时，全班的回答会显示在这里。";
    /// The students' bar.
    STUDENT_ROOM: "Room {code}", "课堂 {code}";
    FOLLOWING: "Following the teacher", "正在跟随老师";
    EXPLORING: "Exploring on your own: what you do stays on this laptop", "正在自行探索：你的操作只留在这台电脑上";
    EXPLORE: "Explore on my own", "自己探索";
    FOLLOW: "Follow the teacher", "跟随老师";
    JOINING: "Joining room {code}…", "正在加入课堂 {code}…";
    WAITING_FOR_TEACHER: "Waiting for the teacher to start", "等待老师开始";
    LOST: "Connection to the classroom lost: trying again in {s} s", "与课堂的连接已断开：{s} 秒后重试";
    /// A teacher's page whose link was opened on another page, which drives the room now.
    REPLACED: "Another page opened the teacher's link and drives the room now. ", "另一个页面打开了老师链接，现在由它主持课堂。";
    DRIVE_HERE: "Drive from this page", "改由本页面主持";
    CONNECTING: "Connecting to the classroom…", "正在连接课堂…";
    REFUSED: "The classroom refused: {why}", "课堂拒绝了：{why}";
    /// A student's answer, sent, before the teacher reveals it.
    ANSWER_SENT: "Your answer is in. The teacher reveals the result to everyone.", "你的回答已提交，老师会向全班公布结果。";
    /// A lesson step's task, on a following student's page: the teacher does it.
    TEACHER_DOES: "The teacher will: ", "老师将会：";
    TEACHER_LEADS: "The teacher leads this lesson: the steps follow the teacher's.", "这节课由老师带领：步骤跟随老师切换。";
}
